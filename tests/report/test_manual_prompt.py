"""The prompts on the graders' page (DIR/manual/responses.html) are rendered;
the students' answers beside them are not.

The page is written from hand-made results (hw1_attention with a manual
question of its own, as tests/course/test_manual_scores.py does): a prompt's
Markdown becomes HTML and its math stays TeX; an answer holding the same
Markdown, math and a script stays the escaped text it was; a prompt holding
raw HTML puts no element of its own on the page. The prompt is read from
the submitted notebook, so a student can write it too.
"""
from __future__ import annotations

import dataclasses
import html
import logging
import re

import pytest

from autograder.engine import assignment as assignment_mod
from autograder.engine import batch as batch_mod
from autograder.engine import config as config_mod
from autograder.engine.results import SubmissionResult
from autograder.report import manual_export

PROMPT = """<!-- free response: explain -->
# Attention

Answer in **three sentences**:

- why the scores are scaled, with `d_k`;
- what $W_q x_i$ and $a*b*c$ are.

$$
\\mathrm{softmax}\\left(\\frac{q_i k_j^T}{\\sqrt{d_k}}\\right)
$$

| name | shape |
|---|---|
| $W_q$ | `(d, d_k)` |
"""
ANSWER = "<script>alert(1)</script> **not bold** $x_1$ `c` <b>b</b> & [l](javascript:x())"


def page(tmp_path, prompt: str = PROMPT, answer: str = ANSWER) -> str:
    """responses.html for one submission whose `explain` has this prompt and answer."""
    loaded = assignment_mod.load("hw1_attention")
    config = dataclasses.replace(loaded.config, manual={"explain": config_mod.ManualQuestion(2.0)})
    a = dataclasses.replace(loaded, config=config)
    cells = [{"cell_type": "markdown", "source": prompt},
             {"cell_type": "markdown", "source": answer},
             {"cell_type": "code", "source": "x = 1"}]
    out = tmp_path / "out"
    out.mkdir()
    manual_export.write(batch_mod.Batch(a, out, results=[
        SubmissionResult("ada", "hw1_attention", cells=cells)]))
    return (out / manual_export.FOLDER / manual_export.PAGE).read_text()


def prompt_of(text: str) -> str:
    """The rendered prompt's HTML (the escaped source is in a "prompt answer" div)."""
    found = re.search(r'<div class="prompt">(.*?)</div>', text, re.S)
    assert found, "no rendered prompt on the page"
    return found.group(1)


def test_a_prompts_markdown_is_html_and_its_math_stays_tex(tmp_path):
    text = page(tmp_path)
    prompt = prompt_of(text)
    assert "<h3>Attention</h3>" in prompt  # under the page's h1 (code) and h2 (question)
    assert "<strong>three sentences</strong>" in prompt and "<code>d_k</code>" in prompt
    assert prompt.count("<li>") == 2 and "<table>" in prompt and "<code>(d, d_k)</code>" in prompt
    # the math: delimiters, underscores and asterisks as written, no emphasis made of them
    assert '<span class="math">$W_q x_i$</span>' in prompt
    assert '<span class="math">$a*b*c$</span>' in prompt and "<em>" not in prompt
    assert ('<span class="math display">$$\n\\mathrm{softmax}\\left(\\frac{q_i k_j^T}'
            '{\\sqrt{d_k}}\\right)\n$$</span>') in prompt
    assert "**" not in prompt and "# Attention" not in prompt and "free response" not in prompt
    # one printed page per code still: the prompt adds no element of class "code"
    assert text.count('class="code"') == 1 and "page-break-before: always" in text


def test_a_students_answer_stays_escaped_text_beside_a_rendered_prompt(tmp_path):
    """The answer holds what the prompt renders (Markdown, math) and HTML: it is shown as typed."""
    text = page(tmp_path)
    assert "<strong>three sentences</strong>" in prompt_of(text)  # the prompt is rendered ...
    assert f'<div class="answer">{html.escape(ANSWER)}</div>' in text  # ... the answer is not
    assert "<script" not in text and "<b>" not in text and "not bold</strong>" not in text
    assert '<span class="math">$x_1$' not in text and 'href="javascript' not in text
    assert "Content-Security-Policy" in text


def test_a_prompt_puts_no_html_of_its_own_on_the_page(tmp_path):
    hostile = ("<!-- free response: explain -->\n<script>alert(1)</script>\n\n"
               "Say **why** <img src=x onerror=alert(1)> [here](javascript:alert(1)) "
               "$</span><script>x()</script>$")
    text = page(tmp_path, prompt=hostile, answer="fine")
    prompt = prompt_of(text)
    assert "<strong>why</strong>" in prompt  # rendered, and yet:
    assert "<script" not in text and "<img" not in text and "javascript:" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in prompt
    assert '<span class="math">$&lt;/span&gt;&lt;script&gt;x()&lt;/script&gt;$</span>' in prompt


def test_a_prompt_that_cannot_be_rendered_is_shown_as_its_source(tmp_path, monkeypatch, caplog):
    """A bug of ours in the rendering costs the prompt its rendering, not the answer."""
    def broken(markdown):
        raise ValueError("boom")
    monkeypatch.setattr(manual_export.prompt_html, "render", broken)
    with caplog.at_level(logging.ERROR):
        text = page(tmp_path, prompt="<!-- free response: explain -->\n**Why** $x_1$?",
                    answer="because")
    assert '<div class="prompt answer">**Why** $x_1$?</div>' in text
    assert '<div class="answer">because</div>' in text and "the prompt of explain" in caplog.text


@pytest.mark.parametrize("markdown", ["", "costs $5 and $10", "`$x$` in code", "\\$x\\$"])
def test_dollars_that_are_not_math_stay_text(markdown):
    from autograder.report import prompt_html
    assert 'class="math' not in prompt_html.render(markdown)
