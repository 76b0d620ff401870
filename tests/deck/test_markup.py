"""The light markup shared by cards, rulebooks and exports."""

from generator.deck.markup import BulletList, Emphasis, Paragraph, Ref, Text, parse


def test_list_right_after_a_sentence_is_a_list():
    blocks = parse("Check in order:\n- first *this*;\n- then\n  that.\n\nDone.")
    assert blocks[0] == Paragraph((Text("Check in order:"),))
    assert blocks[1] == BulletList(((Text("first "), Emphasis("this"), Text(";")), (Text("then that."),)))
    assert blocks[2] == Paragraph((Text("Done."),))


def test_inline_spans():
    [block] = parse("Play **one** {card:Wizard} on {suit:hearts}, see {rule:a.b}.")
    assert block.spans == (Text("Play "), Emphasis("one", strong=True), Text(" "), Ref("card", "Wizard"),
                           Text(" on "), Ref("suit", "hearts"), Text(", see "), Ref("rule", "a.b"), Text("."))
