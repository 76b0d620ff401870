"""Designer workflows of issue 35, each run through the CLI on a small deck made for the test."""
