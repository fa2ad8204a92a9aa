// The inlined player: a page's <script> elements stay intact whatever the terminal printed, and nothing is fetched.
import { describe, expect, it } from "vitest";
import { asciinemaAssets, asciinemaPlayer } from "../../report/asciinema.ts";

describe("asciinemaPlayer", () => {
  it("inlines the recording as data, so terminal text that reads </script> cannot end the element", () => {
    const cast = `{"version":2,"width":80,"height":24}\n[0.1,"o","</script><script>alert(1)</script>"]\n`;
    const html = asciinemaPlayer({ id: "cast-1", cast, title: "ui <1>" });
    // One opening and one closing script tag: the player's own.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain("AsciinemaPlayer.create({ data: ");
    expect(html).toContain("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>");
    expect(html).toContain("<figcaption>ui &lt;1&gt;</figcaption>");
    // The data round-trips: the string literal in the script is the cast, byte for byte.
    const literal = /data: ("(?:[^"\\]|\\.)*")/.exec(html)![1]!;
    expect(JSON.parse(literal)).toBe(cast);
  });
});

describe("asciinemaAssets", () => {
  it("inlines the player's bundle and style, with no URL for the browser to load", () => {
    const html = asciinemaAssets();
    expect(html.includes("var AsciinemaPlayer=")).toBe(true);
    expect(html.includes(".ap-player")).toBe(true);
    // (Whether the bundle fetches anything at run time is for the browser test to see.)
    expect(/<script[^>]*\bsrc=|<link\b/.test(html)).toBe(false);
    // Three elements, each closed once: the style, the bundle, the seek hook.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });
});
