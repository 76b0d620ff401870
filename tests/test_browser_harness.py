"""The browser the page tests use is real: it lays out, runs scripts and records requests."""

from tests.browser import external_requests


def test_chromium_renders_and_runs_scripts(page, tmp_path):
    html = tmp_path / "probe.html"
    html.write_text("<p id=p>waiting</p><script>document.getElementById('p').textContent = 'ran'</script>",
                    encoding="utf-8")
    page.goto(html.as_uri())
    assert page.inner_text("#p") == "ran"
    assert external_requests(page.deckgen_requests) == []


def test_external_requests_are_told_apart():
    assert external_requests(["file:///x", "data:image/png;base64,", "https://cdn.example/x.js"]) == [
        "https://cdn.example/x.js"]
