"""A question's prompt as HTML: its Markdown rendered, its math kept as TeX source.

The graders read the prompt beside the answer, and raw Markdown and LaTeX
(`**Question C2**`, `$12\\,d_{model}^2$`) read badly. The prompt is the
Markdown cell above the answer in the *submitted* notebook, so a student
may have edited it: it is rendered by mistune (nbconvert's Markdown
renderer, already installed) with raw HTML escaped, link and image URLs of
a harmful protocol (javascript:, ...) dropped by mistune, and no ids or
classes of our own but `math`; the page forbids scripts besides
(htmlpage.NO_SCRIPTS). The student's answer is never rendered: it stays
escaped text (manual_export.section).

Math ($...$, $$...$$) is a token of mistune's math plugin, parsed before
emphasis and code spans are, so `_` and `*` in it stay TeX and the
delimiters survive. It is shown as its escaped TeX source in
`<span class="math">`, not typeset: MathJax would need a script, which the
page's Content-Security-Policy forbids (rightly, on a page of students'
text), and the page must read offline and in print. Prompt headings are
moved two levels down, under the page's code (h1) and question (h2).
"""
from __future__ import annotations

from functools import cache

from autograder import guard
from autograder.report.htmlpage import esc

CSS = """
.prompt { color: #444; border-left: 3px solid #ccc; padding: 0.3em 0.8em; background: #fafafa;
          margin: 0.4em 0 0.6em; }
.prompt > :first-child { margin-top: 0; } .prompt > :last-child { margin-bottom: 0; }
.prompt h3, .prompt h4, .prompt h5, .prompt h6 { font-size: 1em; margin: 0.6em 0 0.3em; }
.math { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
        font-size: 0.92em; background: #eef1f8; padding: 0 0.2em; border-radius: 2px;
        overflow-wrap: anywhere; }
.math.display { display: block; text-align: center; margin: 0.5em 0; padding: 0.3em;
                white-space: pre-wrap; }
@media print { .prompt pre, .prompt table, .math.display { page-break-inside: avoid; } }
"""
"""The prompt's style: the page adds it to its own."""


def render(markdown: str) -> str:
    """The prompt's HTML (mistune's output, with math as TeX source)."""
    return _markdown()(markdown)


def block(question: str, markdown: str) -> str:
    """The prompt of `question` in its box: rendered, or (when rendering fails:
    logged) its escaped source."""
    rendered, _ = guard.attempt(f"the prompt of {question}", render, markdown)
    return (f'<div class="prompt">{rendered}</div>' if rendered is not None
            else f'<div class="prompt answer">{esc(markdown)}</div>')


def _inline_math(renderer, text: str) -> str:
    return f'<span class="math">${esc(text)}$</span>'


def _display_math(renderer, text: str) -> str:
    # A span, not a div: `$$...$$` may sit inside a paragraph.
    return f'<span class="math display">$$\n{esc(text.strip())}\n$$</span>\n'


@cache
def _markdown():
    """One renderer for every prompt; mistune is imported only when a page is
    written (a missing or older mistune costs the prompts' rendering, which
    the caller guards, not every report)."""
    import mistune
    from mistune.plugins.math import math, math_in_list, math_in_quote

    class Renderer(mistune.HTMLRenderer):
        def heading(self, text, level, **attrs):
            return super().heading(text, min(level + 2, 6))  # no id: the page's ids are the codes'

    md = mistune.create_markdown(renderer=Renderer(escape=True),
                                 plugins=["table", "strikethrough", math, math_in_list,
                                          math_in_quote])
    md.renderer.register("inline_math", _inline_math)
    md.renderer.register("block_math", _display_math)
    return md
