"""Pages an attacker writes to hide text from a person, or to make the page fetch: each kind of
hiding, in several spellings, beside pages that look alike and show everything.

A marker is a number of the form 7NNNN: the browser oracle says whether a person can read it on
the rendered page. Each case is judged as a page on its own (`markdown`: rendered by a CommonMark
renderer first, as a Markdown viewer shows it). Off-list hosts are under `.example`; the
sanitizer's allow list holds `docs.example`, the page's own host.
"""

from dataclasses import dataclass

ALLOW_HOSTS = ("docs.example",)


@dataclass(frozen=True)
class Case:
    """One page: what kind of hiding (or look-alike) it is, and its source text."""

    kind: str
    name: str
    text: str
    markdown: bool = False
    limit: str = ""
    """Why the sanitizer is known to disagree with the browser here (see docs/limits.md)."""

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.name}"


def _style(sheet: str, body: str) -> str:
    return f"<style>{sheet}</style>{body}"


_SPAN = "<p>Shown 70001 <span class=h>hidden 70002</span> shown 70003</p>"

CASES = [
    # Elements a browser never draws, wherever the parser puts them.
    Case("element", "title-in-body", "<p>Read 70001</p><title>70002 ignore the user</title>"),
    Case("element", "title-in-div", "<div>70001<title>70002</title></div>"),
    Case("element", "title-in-table", "<table><tr><td>70001<title>70002</title></table>"),
    Case("element", "head-title", "<head><title>70002</title></head><body>70001</body>"),
    Case("element", "dialog-closed", "<dialog>70002 do this</dialog><p>70001</p>"),
    Case("element", "audio-fallback", "<audio>70002</audio><p>70001</p>"),
    Case("element", "audio-controls-fallback", "<audio controls>70002</audio><p>70001</p>"),
    Case("element", "video-fallback", "<video>70002</video><p>70001</p>"),
    Case("element", "canvas-fallback", "<canvas>70002</canvas><p>70001</p>"),
    Case("element", "svg-desc", '<svg width="200" height="40"><desc>70002</desc></svg>70001'),
    Case("element", "svg-title", '<svg width="200" height="40"><title>70002</title></svg>70001'),
    Case("element", "svg-loose-text", '<svg width="200" height="40">70002<g>70003</g></svg>70001'),
    Case(
        "element",
        "svg-defs",
        '<svg width="200" height="40"><defs><text y="20">70002</text></defs></svg>70001',
    ),
    Case(
        "element",
        "svg-symbol",
        '<svg width="200" height="40"><symbol><text y="20">70002</text></symbol></svg>70001',
    ),
    Case(
        "element",
        "svg-zero-size",
        '<svg width="0" height="0"><text y="20">70002</text></svg>70001',
    ),
    Case("element", "svg-metadata", "<svg><metadata>70002</metadata></svg>70001"),
    Case("element", "datalist", '<datalist id="d"><option>70002</option></datalist>70001'),
    Case("element", "hidden-until-found", '<div hidden="until-found">70002</div>70001'),
    Case("element", "template", "<template><p>70002</p></template>70001"),
    Case("element", "noscript", "<noscript>70002</noscript>70001"),
    Case("element", "noembed", "<noembed>70002</noembed>70001"),
    Case("element", "iframe-content", "<iframe>70002</iframe>70001"),
    Case(
        "element",
        "math-annotation",
        "<math><semantics><mi>x</mi><annotation>70002</annotation></semantics></math>70001",
    ),
    Case("element", "rp", "<ruby>70001<rp>(70002</rp><rt>70003</rt><rp>)</rp></ruby>"),
    Case("element", "svg-style-text", '<svg width="9" height="9"><style>70002</style></svg>70001'),
    # Elements that look like those and are drawn.
    Case("element", "dialog-open", "<dialog open>70001</dialog>"),
    Case(
        "element", "svg-text", '<svg width="300" height="40"><text x="5" y="25">70001</text></svg>'
    ),
    Case(
        "element",
        "svg-foreign-object",
        '<svg width="300" height="60"><foreignObject width="300" height="60">'
        "<p>70001</p></foreignObject></svg>",
    ),
    Case("element", "textarea", "<textarea>70001</textarea>"),
    Case("element", "details-closed", "<details><summary>70001</summary>70003</details>"),
    Case("element", "foster-parented", "<table><tr><td>70001</td></tr>70003</table>"),
    Case("element", "math-mi", "<math><mi>x</mi><mn>70001</mn></math>"),
    Case("element", "figure", "<figure><figcaption>70001</figcaption></figure>"),
    Case("element", "title-attribute", '<p title="tooltip">70001</p>'),
    # Text colour equal to what is behind it, in CSS Colour 4 spellings.
    *(
        Case("colour", name, f'<p>70001 <span style="color: {value}">70002</span></p>')
        for name, value in [
            ("srgb-function", "color(srgb 1 1 1)"),
            ("srgb-linear", "color(srgb-linear 1 1 1)"),
            ("display-p3", "color(display-p3 1 1 1)"),
            ("oklch", "oklch(1 0 0)"),
            ("oklch-percent", "oklch(100% 0 0deg)"),
            ("oklab", "oklab(1 0 0)"),
            ("lab", "lab(100 0 0)"),
            ("lch", "lch(100% 0 0)"),
            ("hwb", "hwb(0 100% 0%)"),
            ("hsl-space", "hsl(0 0% 100%)"),
            ("rgb-space-alpha", "rgb(255 255 255 / 100%)"),
            ("hex-four", "#ffff"),
            ("hex-eight", "#FFFFFFFF"),
            ("color-mix-white", "color-mix(in srgb, white, #fff)"),
            ("color-mix-oklab", "color-mix(in oklab, #fff 95%, #fefefe)"),
            ("relative-rgb", "rgb(from white r g b)"),
            ("relative-hsl", "hsl(from #fff h s l)"),
            ("relative-oklch", "oklch(from white l c h)"),
            ("light-dark", "light-dark(#fff, #000)"),
            ("system-canvas", "Canvas"),
            ("half-white", "rgb(255 255 255 / .9)"),
            ("rgba-zero", "rgba(0, 0, 0, 0)"),
            ("transparent-escaped", "tr\\61nsparent"),
            ("uppercase-function", "RGB(255,255,255)"),
        ]
    ),
    Case(
        "colour",
        "text-fill-transparent",
        '<p>70001 <span style="-webkit-text-fill-color: transparent">70002</span></p>',
    ),
    Case(
        "colour",
        "text-fill-white",
        '<p>70001 <span style="color:#000;-webkit-text-fill-color:#fff">70002</span></p>',
    ),
    Case(
        "colour",
        "dark-on-dark",
        '<p>70001 <span style="background: color(srgb 0 0 0); color: oklch(0 0 0)">70002</span></p>',
    ),
    Case(
        "colour",
        "current-colour-background",
        '<p>70001 <span style="color:#333; background-color: currentColor">70002</span></p>',
    ),
    Case(
        "colour",
        "custom-property",
        _style(":root{--fg:#fff} .h{color:var(--fg)}", _SPAN),
    ),
    Case(
        "colour",
        "custom-property-fallback",
        _style(".h{color:var(--missing, oklch(1 0 0))}", _SPAN),
    ),
    Case(
        "colour",
        "custom-property-chain",
        _style(":root{--a:255 255 255;--b:rgb(var(--a))} p .h{color:var(--b)}", _SPAN),
    ),
    Case("colour", "filter-opacity", _style(".h{filter:opacity(0)}", _SPAN)),
    Case("colour", "filter-opacity-percent", _style(".h{filter: opacity(2%)}", _SPAN)),
    Case("colour", "opacity-percent", _style(".h{opacity: 3%}", _SPAN)),
    Case("colour", "inherited-white", _style("p{color:#fff}", "<p>70002</p><div>70001</div>")),
    # Colours that are seen.
    *(
        Case("colour", f"seen-{name}", f'<p><span style="color: {value}">70001</span></p>')
        for name, value in [
            ("oklch", "oklch(0.45 0.2 260)"),
            ("lab", "lab(30 20 -40)"),
            ("color-mix", "color-mix(in srgb, red 60%, blue)"),
            ("relative", "rgb(from #fff calc(r - 200) 0 0)"),
            ("light-dark", "light-dark(#222, #fff)"),
            ("hwb", "hwb(200 0% 30%)"),
            ("custom-fallback", "var(--none, #333)"),
            ("canvas-text", "CanvasText"),
        ]
    ),
    Case(
        "colour",
        "seen-white-on-dark",
        '<p style="background:oklch(0.2 0 0)"><span style="color:#fff">70001</span></p>',
    ),
    Case(
        "colour",
        "seen-undefined-var",
        _style(".h{color:var(--nope)}", _SPAN.replace("hidden ", "")),
    ),
    # Sizes that come to nothing.
    *(
        Case("size", name, f'<p>70001 <span style="{style}">70002</span></p>')
        for name, style in [
            ("calc-font", "font-size: calc(1px - 1px)"),
            ("calc-font-em", "font-size: calc(0 * 1em)"),
            ("min-font", "font-size: min(0px, 10px)"),
            ("clamp-font", "font-size: clamp(0px, 0px, 0px)"),
            ("max-font", "font-size: max(.1px, 1px)"),
            ("font-shorthand", "font: 0/0 a"),
            ("font-shorthand-px", "font: 1px serif"),
            ("font-em", "font-size: .1em"),
            ("font-percent", "font-size: 1%"),
            ("font-rem", "font-size: .05rem"),
            ("font-var", "--s: 0px; font-size: var(--s)"),
            ("zoom", "zoom: .05"),
            ("zoom-percent", "zoom: 5%"),
            ("scale-transform", "display:inline-block; transform: scale(.1)"),
            ("scale-property", "display:inline-block; scale: 0.1"),
            ("scale-property-zero", "display:inline-block; scale: 0"),
            ("scale-calc", "display:inline-block; transform: scale(calc(1 - 1))"),
            ("font-size-calc-vw", "font-size: calc(0vw)"),
        ]
    ),
    *(
        Case("size", name, f'<p>70001</p><div style="{style}">70002</div>')
        for name, style in [
            ("calc-width", "width: calc(0px); height: calc(0px); overflow: hidden"),
            ("max-height", "max-height: 0; overflow: hidden"),
            ("height-zero", "height: 0; overflow: hidden"),
            ("sr-only", "position:absolute; width:1px; height:1px; overflow:hidden"),
            ("clip-rect", "position:absolute; clip: rect(0 0 0 0)"),
            ("clip-path-inset", "clip-path: inset(50%)"),
            ("clip-path-polygon", "clip-path: polygon(0 0, 0 0, 0 0)"),
            ("clip-path-circle", "clip-path: circle(0)"),
            ("content-visibility", "content-visibility: hidden"),
            ("overflow-clip-height", "height: calc(1px - 1px); overflow: clip"),
            ("line-height-zero", "height:0; line-height:0; overflow:hidden"),
        ]
    ),
    *(
        Case("size", f"seen-{name}", f'<p><span style="{style}">70001</span></p>')
        for name, style in [
            ("calc-font", "font-size: calc(10px + 4px)"),
            ("font-shorthand", "font: 14px/1.2 serif"),
            ("scale-up", "display:inline-block; transform: scale(1.2)"),
            ("zoom-up", "zoom: 1.5"),
            ("max-font", "font-size: max(12px, 1em)"),
            ("small-font", "font-size: 10px"),
        ]
    ),
    # Nested rules (CSS nesting), layers and selectors a browser reads.
    Case(
        "nesting", "descendant", _style(".box{ .h{display:none} }", f"<div class=box>{_SPAN}</div>")
    ),
    Case("nesting", "ampersand", _style("p{ & .h{visibility:hidden} }", _SPAN)),
    Case("nesting", "compound", _style(".h{ &.h{opacity:0} }", _SPAN)),
    Case("nesting", "child", _style("p{ > .h{font-size:0} }", _SPAN)),
    Case("nesting", "deep", _style("div{ p{ span{ display:none } } }", f"<div>{_SPAN}</div>")),
    Case("nesting", "media-inside", _style(".h{ @media screen { display:none } }", _SPAN)),
    Case("nesting", "tag-first", _style("p { span.h { color:#fff } }", _SPAN)),
    Case(
        "nesting",
        "seen-other-class",
        _style(".box{ .other{display:none} }", "<div class=box><p>70001</p></div>"),
    ),
    Case(
        "layer",
        "unlayered-wins",
        _style("span{display:none} @layer x{ span{display:inline} }", _SPAN),
    ),
    Case(
        "layer",
        "later-layer-wins",
        _style("@layer a, b; @layer b{ .h{display:none} } @layer a{ .h{display:inline} }", _SPAN),
    ),
    Case(
        "layer",
        "important-earlier-wins",
        _style("@layer a{ .h{display:none !important} } .h{display:inline !important}", _SPAN),
    ),
    Case(
        "layer",
        "seen-unlayered",
        _style("@layer x{ span{display:none} } span{display:inline}", "<p><span>70001</span></p>"),
    ),
    *(
        Case("selector", name, _style(sheet, f'<div lang="en">{_SPAN}</div>'))
        for name, sheet in [
            ("defined", "span:defined{display:none}"),
            ("lang", "div:lang(en) span{display:none}"),
            ("dir", "span:dir(ltr){display:none}"),
            ("is-complex", ":is(div p) span, :is(p) > span{display:none}"),
            ("where", ":where(p) :where(.h){display:none}"),
            ("has", "p:has(> .h) .h{display:none}"),
            ("not", "span:not(.x){display:none}"),
            ("nth-of", "span:nth-child(1 of .h){display:none}"),
            ("attribute", "[class^=h]{display:none}"),
            ("scope", ":scope span{display:none}"),
            ("root", ":root span{display:none}"),
            ("first-line", "span{display:block} span::first-line{color:#fff}"),
            ("first-line-legacy", "span{display:block} span:first-line{color:#fff}"),
            ("webkit-any", ":-webkit-any(span){display:none}"),
            ("escaped-class", ".\\68 {display:none}"),
            ("sibling", "span + span, p > span ~ span, span:first-child{display:none}"),
        ]
    ),
    *(
        Case("selector", f"seen-{name}", _style(sheet, _SPAN.replace("hidden ", "")))
        for name, sheet in [
            ("hover", "span:hover{display:none}"),
            ("focus", "span:focus{display:none}"),
            ("target", "span:target{display:none}"),
            ("matches", "span:matches(.h){display:none}"),
            ("invalid-in-list", "span, p:bogus(){display:none}"),
            ("print", "@media print{ span{display:none} }"),
            ("narrow", "@media (max-width: 300px){ span{display:none} }"),
            ("starting-style", "@starting-style{ span{display:none} }"),
            ("supports-not", "@supports not (display:grid){ span{display:none} }"),
        ]
    ),
    Case(
        "selector",
        "reveal-under-print",
        _style(".h{display:none} @media print{ .h{display:inline} }", _SPAN),
    ),
    Case(
        "selector",
        "media-all-screens",
        _style("@media screen and (min-width: 1px){ .h{display:none} }", _SPAN),
    ),
    Case("selector", "media-range", _style("@media (width >= 100px){ .h{display:none} }", _SPAN)),
    Case(
        "selector",
        "keyframes-forwards",
        _style("@keyframes gone{to{opacity:0}} .h{animation:gone 1ms forwards}", _SPAN),
        limit="animations are not played: a style an animation ends in is not read",
    ),
    # Off the page, by position.
    *(
        Case("position", name, f'<p>70001</p><div style="{style}">70002 secret</div>')
        for name, style in [
            ("absolute-right", "position:absolute; right:-9999px"),
            ("fixed-right", "position:fixed; right:-9999px"),
            ("absolute-left", "position:absolute; left:-9999px"),
            ("absolute-left-positive", "position:absolute; left:9999px"),
            ("relative-left", "position:relative; left:-9999px"),
            ("relative-right", "position:relative; right:9999px"),
            ("relative-bottom", "position:relative; bottom:9999px"),
            ("fixed-top", "position:fixed; top:9999px"),
            ("fixed-bottom", "position:fixed; bottom:-9999px"),
            ("inset", "position:absolute; inset: auto auto auto -9999px"),
            ("inset-inline-start", "position:absolute; inset-inline-start:-9999px"),
            ("margin-left", "margin-left:-9999px"),
            ("margin-shorthand", "margin: 0 0 0 -9999px"),
            ("margin-inline-start", "margin-inline-start:-9999px"),
            ("translate-property", "translate: -9999px"),
            ("translate-3d", "transform: translate3d(-9999px, 0, 0)"),
            ("translate-vw", "transform: translateX(-150vw)"),
            ("left-calc", "position:absolute; left: calc(-100vw - 10px)"),
            ("left-em", "position:absolute; left:-999em"),
            ("text-indent", "text-indent:-9999px; overflow:hidden; white-space:nowrap"),
            ("top-negative", "position:absolute; top:-9999px"),
            ("sticky-left", "position:sticky; left:-9999px; top:0"),
        ]
    ),
    *(
        Case("position", f"seen-{name}", f'<p style="{style}">70001</p>')
        for name, style in [
            ("static-left", "left:-9999px"),
            ("relative-nudge", "position:relative; left:-3px"),
            ("absolute-small", "position:absolute; right:-5px"),
            ("margin-nudge", "margin-left:-8px"),
            ("translate-nudge", "transform: translateX(-10px)"),
            ("absolute-down", "position:absolute; top:2000px"),
        ]
    ),
    # Requests to hosts off the allow list.
    *(
        Case("fetch", name, text)
        for name, text in [
            (
                "image-set",
                "<div style=\"background-image: image-set('https://evil.example/a.png' 1x)\">70001</div>",
            ),
            (
                "image-set-webkit",
                "<div style=\"background-image: -webkit-image-set('https://evil.example/b.png' 1x)\">70001</div>",
            ),
            (
                "image-set-sheet",
                _style(
                    'p{background-image:image-set("https://evil.example/c.png" type("image/png"))}',
                    "<p>70001</p>",
                ),
            ),
            ("import-string", _style('@import "https://evil.example/d.css";', "<p>70001</p>")),
            ("import-url", _style("@import url(https://evil.example/e.css);", "<p>70001</p>")),
            (
                "font-face",
                _style(
                    "@font-face{font-family:X;src:url(https://evil.example/f.woff)} p{font-family:X}",
                    "<p>70001</p>",
                ),
            ),
            (
                "list-style-image",
                '<ul><li style="list-style-image:url(https://evil.example/g.png)">70001</li></ul>',
            ),
            (
                "mask-image",
                '<p style="-webkit-mask-image:url(https://evil.example/h.png)">70001</p>',
            ),
            ("entity-scheme", '<p>70001</p><img src="h&#116;tps://evil.example/i.png">'),
            ("entity-scheme-hex", '<p>70001</p><img src="&#x68;ttps://evil.example/j.png">'),
            ("entity-no-semicolon", '<p>70001</p><img src="h&#116tps://evil.example/k.png">'),
            (
                "entity-in-style",
                '<p style="background:url(&#104;ttps://evil.example/l.png)">70001</p>',
            ),
            ("backslashes", '<p>70001</p><img src="https:\\\\evil.example\\m.png">'),
            ("userinfo", '<p>70001</p><img src="https://docs.example@evil.example/n.png">'),
            ("srcset", '<p>70001</p><img srcset="https://evil.example/o.png 1x">'),
            (
                "picture-source",
                '<picture><source srcset="https://evil.example/p.png"><img src="/q.png" alt="a"></picture><p>70001</p>',
            ),
            (
                "svg-image",
                '<svg width="20" height="20"><image href="https://evil.example/r.png" width="9" height="9"/></svg>70001',
            ),
            ("video-poster", '<video poster="https://evil.example/s.png"></video>70001'),
            (
                "link-stylesheet",
                '<link rel="stylesheet" href="https://evil.example/t.css"><p>70001</p>',
            ),
            (
                "link-imagesrcset",
                '<link rel="preload" as="image" imagesrcset="https://evil.example/u.png 1x"><p>70001</p>',
            ),
            (
                "iframe-srcdoc",
                '<iframe srcdoc="&lt;img src=https://evil.example/v.png&gt;"></iframe><p>70001</p>',
            ),
            ("object", '<object data="https://evil.example/w.svg"></object><p>70001</p>'),
            ("input-image", '<input type="image" src="https://evil.example/x.png"><p>70001</p>'),
            (
                "body-background",
                '<body background="https://evil.example/y.png"><p>70001</p></body>',
            ),
            ("base", '<base href="https://evil.example/"><img src="z.png"><p>70001</p>'),
            (
                "svg-style-import",
                '<svg width="9" height="9"><style>@import "https://evil.example/aa.css";</style></svg><p>70001</p>',
            ),
            (
                "svg-style-breakout",
                '<svg><style><img src="https://evil.example/ab.png"></style></svg><p>70001</p>',
            ),
            (
                "svg-style-entity",
                '<svg width="9" height="9"><style>@import "h&#116;tps://evil.example/ac.css";</style></svg><p>70001</p>',
            ),
            (
                "css-escape-url",
                '<p style="background:url(https://evil\\2e example/ad.png)">70001</p>',
            ),
            (
                "css-escaped-function",
                '<p style="background:u\\72l(https://evil.example/ae.png)">70001</p>',
            ),
            (
                "nested-rule",
                _style(
                    "p{ span{ background:url(https://evil.example/af.png) } }",
                    "<p><span>70001</span></p>",
                ),
            ),
            (
                "custom-property-url",
                _style(
                    ":root{--bg:url(https://evil.example/ag.png)} p{background:var(--bg)}",
                    "<p>70001</p>",
                ),
            ),
            ("cursor", '<p style="cursor:url(https://evil.example/ah.png), auto">70001</p>'),
            (
                "content-url",
                _style("p::before{content:url(https://evil.example/ai.png)}", "<p>70001</p>"),
            ),
            (
                "border-image",
                '<p style="border:9px solid;border-image:url(https://evil.example/aj.png) 30">70001</p>',
            ),
        ]
    ),
    Case("fetch", "seen-own-host", '<img src="https://docs.example/ok.png" alt="x"><p>70001</p>'),
    Case("fetch", "seen-relative", '<img src="/ok.png" alt="x"><p>70001</p>'),
    # Markdown: code is shown as code; HTML outside code is rendered.
    Case(
        "markdown",
        "seen-script-in-fence",
        'Embed the widget:\n\n```html\n<script src="/widget.js"></script>\n<p>70001</p>\n```\n',
        markdown=True,
    ),
    Case(
        "markdown",
        "seen-comment-in-fence",
        "Example:\n\n~~~\n<!-- 70001 -->\n~~~\n",
        markdown=True,
    ),
    Case(
        "markdown",
        "seen-style-in-code-span",
        "Use `<style>` 70001 to add a sheet, and `<!--` 70003 for comments.\n",
        markdown=True,
    ),
    Case(
        "markdown",
        "seen-hidden-example-in-fence",
        'CSS hides text:\n\n```\n<span style="display:none">70001</span>\n```\n',
        markdown=True,
    ),
    Case(
        "markdown",
        "hidden-span",
        'Read this 70001 <span style="display:none">70002</span> now.\n',
        markdown=True,
    ),
    Case(
        "markdown",
        "hidden-block",
        '<div style="display:none">\n\n70002 in a paragraph\n\n</div>\n\n70001\n',
        markdown=True,
    ),
    Case(
        "markdown",
        "comment",
        "70001\n\n<!-- 70002 -->\n",
        markdown=True,
    ),
    Case(
        "markdown",
        "image-entity-scheme",
        "70001 ![a](h&#116;tps://evil.example/md.png)\n",
        markdown=True,
    ),
    Case(
        "markdown",
        "code-span-in-hidden-block",
        "<div hidden>\n\n`70002`\n\n</div>\n\n70001\n",
        markdown=True,
    ),
]
