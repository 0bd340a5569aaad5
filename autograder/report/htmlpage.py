"""A self-contained HTML page: inline CSS, escaped text, small table helper.

Everything that reaches a page goes through `esc` (student code can put any
text into an exception message, and that text ends up here).
"""
from __future__ import annotations

import html

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 60em; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
.passed { color: #176b2c; } .failed { color: #a51d1d; } .partial { color: #9a5b00; } .muted { color: #666; }
pre { background: #f7f7f7; border: 1px solid #e3e3e3; padding: 0.5em; white-space: pre-wrap;
      word-break: break-word; margin: 0.3em 0 0.8em 0; }
img.plot { max-width: 100%; border: 1px solid #eee; }
.broken { color: #a51d1d; font-weight: bold; }
"""

# Marks the page once every plot has decoded, and says so visibly when one has
# not: the browser test reads data-plots-loaded, a reader sees the warning.
CHECK_IMAGES = """
window.addEventListener("load", function () {
  var ok = 0;
  document.querySelectorAll("img.plot").forEach(function (img) {
    if (img.complete && img.naturalWidth > 0) { ok += 1; return; }
    var p = document.createElement("p");
    p.className = "broken";
    p.textContent = "This plot could not be displayed: " + img.alt;
    img.replaceWith(p);
  });
  document.body.dataset.plotsLoaded = String(ok);
});
"""

NO_SCRIPTS = ('<meta http-equiv="Content-Security-Policy" '
              'content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">')
"""For a page of students' text: nothing on it may run or load."""


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def page(title: str, body: list[str], script: bool = False) -> str:
    js = f"<script>{CHECK_IMAGES}</script>\n" if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n{js}</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def table(head: list[str], rows: list[list[str]], numeric: set[int] = frozenset(),
          raw: bool = False) -> str:
    """An HTML table; cells are escaped unless raw (then the caller escaped them)."""
    def cell(tag: str, i: int, value) -> str:
        cls = ' class="num"' if i in numeric else ""
        return f"<{tag}{cls}>{value if raw else esc(value)}</{tag}>"
    lines = ["<table>", "<tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    lines += ["<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>"
              for row in rows]
    return "\n".join(lines + ["</table>"])


def pre(text: str) -> str:
    return f"<pre>{esc(text)}</pre>"


def fmt(x: float) -> str:
    """Points as people write them: 2, 0.5, 10.25."""
    return f"{x:g}"
