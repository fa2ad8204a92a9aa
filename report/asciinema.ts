// asciinema-player inlined into a report page: its script and style once, then one player per .cast, data included.
import fs from "node:fs";
import { createRequire } from "node:module";
import { escapeMarkup, scriptJson as json } from "./escape.ts";

const require = createRequire(import.meta.url);

// The self-contained bundle (the terminal emulator's wasm is inside it as data), so the page fetches nothing. Each
// path is written out, so a tool that lists what the code uses (knip) sees the dependency.
const BUNDLE_FILES = {
  "asciinema-player.min.js": () => require.resolve("asciinema-player/dist/bundle/asciinema-player.min.js"),
  "asciinema-player.css": () => require.resolve("asciinema-player/dist/bundle/asciinema-player.css"),
};
function bundleFile(name: keyof typeof BUNDLE_FILES): string {
  return fs.readFileSync(BUNDLE_FILES[name](), "utf8");
}

// Text that goes inside a <script> element: "</script" or "<!--" in it would end or confuse the element.
function scriptSafe(text: string): string {
  return text.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

// Players register under their id; a click on any element with data-seek="<seconds>" seeks the player named by its
// data-player (default: the page's first player) and shows it.
const SEEK_HOOK = `
window.ccreproPlayers = window.ccreproPlayers || {};
document.addEventListener('click', function (event) {
  var el = event.target && event.target.closest ? event.target.closest('[data-seek]') : null;
  if (!el) return;
  var t = parseFloat(el.getAttribute('data-seek'));
  if (!isFinite(t)) return;
  var id = el.getAttribute('data-player');
  var entry = id ? window.ccreproPlayers[id] : window.ccreproPlayers[Object.keys(window.ccreproPlayers)[0]];
  if (!entry) return;
  event.preventDefault();
  entry.player.seek(t);
  entry.el.scrollIntoView({ block: 'nearest' });
});
`;

let assets: string | null = null;

// Once per page, before any player: the player's style, its script, and the seek hook.
export function asciinemaAssets(): string {
  assets ??= [
    `<style>${bundleFile("asciinema-player.css").replace(/<\/style/gi, "<\\/style")}</style>`,
    `<script>${scriptSafe(bundleFile("asciinema-player.min.js"))}</script>`,
    `<script>${SEEK_HOOK}</script>`,
  ].join("\n");
  return assets;
}

export interface PlayerEmbed {
  // A page-unique id: the element's id and the name data-player refers to.
  id: string;
  // The .cast file's text; its "m" events become the player's markers.
  cast: string;
  title?: string;
}

// A container and the script that creates the player from the inlined recording (a data source, not a URL).
export function asciinemaPlayer(embed: PlayerEmbed): string {
  const id = escapeMarkup(embed.id);
  const caption = embed.title === undefined ? "" : `<figcaption>${escapeMarkup(embed.title)}</figcaption>`;
  return `<figure class="cast" data-cast-player="${id}">${caption}<div id="${id}"></div></figure>
<script>
(function () {
  var el = document.getElementById(${json(embed.id)});
  var player = AsciinemaPlayer.create({ data: ${json(embed.cast)} }, el, { fit: 'width', controls: true, terminalFontSize: 'small' });
  window.ccreproPlayers[${json(embed.id)}] = { player: player, el: el };
})();
</script>`;
}
