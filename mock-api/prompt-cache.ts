// A pure model of the Messages API prompt cache: which prefix a request reads, which it writes, and the usage it would bill.
//
// Every rule below cites the documentation it models, the prompt-caching page:
//   https://platform.claude.com/docs/en/build-with-claude/prompt-caching   (earlier at
//   https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching; the sections cited are the same)
// called DOC below, with the section name after '#'.
//
// Canonical block serialisation (the cache key): caching works on the rendered prompt, not on JSON bytes, so a
// block is keyed by its JSON with object keys sorted and `cache_control` removed (moving a breakpoint does not
// change the prompt; DOC#how-automatic-prefix-checking-works relies on that when a breakpoint moves forward each
// turn), together with its section, its message's role and whether it opens its message (two user messages of one
// block each render differently from one user message of two blocks). A string `system` or message `content` is
// the same as one text block holding that string. Sizes (bytes, tokens) are of this serialisation.
import { sha256Hex } from "../core/hash.ts";

// Tokens are estimated from bytes: about 4 bytes of English text or JSON per token, the usual rule of thumb for
// Claude's tokenizer. Every token figure this module reports is ceil(bytes / BYTES_PER_TOKEN) of a prefix.
export const BYTES_PER_TOKEN = 4;

// DOC#when-to-use-multiple-breakpoints: "You can define up to 4 cache breakpoints". A request with more is refused
// by the API (400 "A maximum of 4 blocks with cache_control may be provided"), so the model reads and writes nothing.
export const MAX_BREAKPOINTS = 4;

// DOC#how-automatic-prefix-checking-works: "the system automatically checks for cache hits at all previous content
// block boundaries (up to approximately 20 blocks before your explicit breakpoint)". The model checks the
// breakpoint's own boundary and the 20 before it.
export const LOOKBACK_BLOCKS = 20;

// DOC#1-hour-cache-duration and DOC#cache-limitations: "ephemeral" lasts 5 minutes by default, `"ttl": "1h"` an hour;
// the lifetime is refreshed each time the entry is used ("5 minutes from last use").
export type CacheTtl = "5m" | "1h";
export const TTL_MS: Record<CacheTtl, number> = { "5m": 5 * 60_000, "1h": 60 * 60_000 };

// DOC#cache-limitations: "The minimum cacheable prompt length is: …"; shorter prefixes are processed without caching.
// Matched by prefix of the model name, first match wins (more specific names first). Values as the page lists them
// (2026 edition, including the Opus 5 / Opus 4.8 migration notes linked from it).
export const MIN_CACHEABLE_TOKENS: readonly (readonly [prefix: string, tokens: number])[] = [
  ["claude-opus-5", 512],
  ["claude-opus-4-8", 1024],
  ["claude-opus-4-6", 4096],
  ["claude-opus-4-5", 4096],
  ["claude-haiku-4-5", 4096],
  ["claude-opus-4-1", 1024],
  ["claude-opus-4", 1024],
  ["claude-sonnet-4-5", 1024],
  ["claude-sonnet-4", 1024],
  ["claude-3-7-sonnet", 1024],
  ["claude-3-5-sonnet", 1024],
  ["claude-3-opus", 1024],
  ["claude-3-5-haiku", 2048],
  ["claude-3-haiku", 2048],
];
// A model name the table does not know (the mock accepts any name) gets the most common documented minimum.
export const DEFAULT_MIN_CACHEABLE_TOKENS = 1024;

export function minCacheableTokens(model: string | undefined): number {
  const name = (model ?? "").toLowerCase();
  return MIN_CACHEABLE_TOKENS.find(([prefix]) => name.startsWith(prefix))?.[1] ?? DEFAULT_MIN_CACHEABLE_TOKENS;
}

// The parts of a Messages request body the cache depends on. Anything else is ignored.
export interface CacheBody {
  model?: string;
  tools?: readonly unknown[];
  system?: string | readonly unknown[];
  messages: readonly { role: string; content: string | readonly unknown[] }[];
  tool_choice?: unknown;
  thinking?: unknown;
}

export interface CacheRequest {
  body: CacheBody;
  // Milliseconds since the epoch: when the API received it (expiry is judged against this).
  receivedAt: number;
}

export type Section = "tools" | "system" | "messages";

export interface BlockRef {
  // 0-based over the whole prompt, in caching order: tools, then system, then messages (DOC#structuring-your-prompt:
  // "Cache prefixes are created in the following order: tools, system, then messages").
  index: number;
  section: Section;
  // tools[3], system[2], messages[4].content[0] (a string content is messages[4].content).
  path: string;
}

export interface PromptBlock extends BlockRef {
  bytes: number;
  // The cumulative hash of the prefix ending with this block: the cache key of an entry written here.
  prefixKey: string;
  // Set when the block carries cache_control.
  breakpoint: CacheTtl | null;
}

// A prefix of the prompt: its first `blocks` blocks; `end` is the last of them (null for the empty prefix).
export interface PrefixSize {
  blocks: number;
  bytes: number;
  tokens: number;
  end: BlockRef | null;
}

export type StopReason =
  // The request read all the previous request wrote (or there is no previous request).
  | "none"
  // The read stops right at the first block that differs from the previous request.
  | "changed-block"
  // Blocks are identical past the read, up to the first difference, but the previous request wrote no entry there.
  | "no-breakpoint-before-change"
  // An entry within the identical part was never written: its prefix was below the model's minimum.
  | "too-short"
  // An entry within the identical part had expired by the time this request arrived.
  | "expired"
  // An entry within the identical part exists but lies more than LOOKBACK_BLOCKS before every breakpoint of this request.
  | "out-of-lookback";

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface RequestCache {
  blocks: PromptBlock[];
  total: PrefixSize;
  breakpoints: (BlockRef & { ttl: CacheTtl })[];
  // The API refuses a request with more than MAX_BREAKPOINTS breakpoints; it then reads and writes nothing.
  rejected: "too-many-breakpoints" | null;
  read: PrefixSize;
  // The prefix up to the last entry this request created or refreshed; `written.tokens - read.tokens` is billed as creation.
  written: PrefixSize;
  created: { bytes: number; tokens: number };
  uncached: { bytes: number; tokens: number };
  // The first block that differs from the previous request of the conversation; null when there is none or no difference.
  firstDifference: BlockRef | null;
  stop: StopReason;
  usage: Usage;
}

interface Entry {
  expiresAt: number;
  ttl: CacheTtl;
}
// What earlier requests wrote: prefix key → entry. Also remembers keys whose write was refused as too short.
export interface CacheState {
  entries: ReadonlyMap<string, Entry>;
  tooShort: ReadonlySet<string>;
}

export function emptyCacheState(): CacheState {
  return { entries: new Map(), tooShort: new Set() };
}

const sha = sha256Hex;

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(object).filter((k) => k !== "cache_control").sort().map((k) => [k, sortKeys(object[k])]));
  }
  return value;
}

function ttlOf(block: unknown): CacheTtl | null {
  if (typeof block !== "object" || block === null || Array.isArray(block)) return null;
  const control = (block as Record<string, unknown>).cache_control;
  if (typeof control !== "object" || control === null) return null;
  return (control as Record<string, unknown>).ttl === "1h" ? "1h" : "5m";
}

// Claude Code's first system block, "x-anthropic-billing-header: cc_version=<v>.<hash>; cc_entrypoint=…; cch=…;", is
// attribution the API consumes, not prompt: it is left out of the cache key. Not in DOC; inferred from the releases
// themselves: its hashes change whenever the first user message does (and `cch` on every request on some native
// releases), yet anthropics/claude-code#34629 reports resumed requests that still read the system prompt from the cache,
// which they could not if a changed first block broke the prefix. Third-party prefix caches that keep the line do miss
// on it (anthropics/claude-code#68900).
function billingHeader(block: unknown): boolean {
  const text = (block as { text?: unknown } | null)?.text;
  return typeof text === "string" && text.startsWith("x-anthropic-billing-header:");
}

// The prompt as an ordered list of blocks with cumulative keys. DOC#what-invalidates-the-cache: changing the model
// invalidates everything (caches are per model), tool definitions invalidate everything, system changes invalidate
// system and messages, and `tool_choice` and thinking parameters invalidate the messages cache: so the model seeds the
// chain and tool_choice/thinking are folded into the first messages block's key.
export function promptBlocks(body: CacheBody): PromptBlock[] {
  const raw: { section: Section; path: string; key: string; breakpoint: CacheTtl | null }[] = [];
  const add = (section: Section, path: string, block: unknown, extra: Record<string, unknown>) => {
    raw.push({ section, path, key: JSON.stringify([section, extra, sortKeys(block)]), breakpoint: ttlOf(block) });
  };
  (body.tools ?? []).forEach((tool, i) => add("tools", `tools[${i}]`, tool, {}));
  if (typeof body.system === "string") add("system", "system", { type: "text", text: body.system }, {});
  else (body.system ?? []).forEach((block, i) => billingHeader(block) || add("system", `system[${i}]`, block, {}));
  let first = true;
  body.messages.forEach((message, m) => {
    const settings = first ? { tool_choice: body.tool_choice ?? null, thinking: body.thinking ?? null } : {};
    if (typeof message.content === "string") {
      add("messages", `messages[${m}].content`, { type: "text", text: message.content }, { role: message.role, opens: true, ...settings });
      first = false;
      return;
    }
    message.content.forEach((block, j) => {
      add("messages", `messages[${m}].content[${j}]`, block, { role: message.role, opens: j === 0, ...(first ? settings : {}) });
      first = false;
    });
  });
  let chain = sha(`model:${body.model ?? ""}`);
  return raw.map((b, index) => {
    chain = sha(chain + b.key);
    return { index, section: b.section, path: b.path, bytes: Buffer.byteLength(b.key), prefixKey: chain, breakpoint: b.breakpoint };
  });
}

const tokensOf = (bytes: number) => Math.ceil(bytes / BYTES_PER_TOKEN);
const ref = (b: PromptBlock): BlockRef => ({ index: b.index, section: b.section, path: b.path });

function prefixSize(blocks: readonly PromptBlock[], count: number): PrefixSize {
  let bytes = 0;
  for (let i = 0; i < count; i++) bytes += blocks[i]!.bytes;
  const last = count > 0 ? blocks[count - 1]! : null;
  return { blocks: count, bytes, tokens: tokensOf(bytes), end: last ? ref(last) : null };
}

const alive = (entry: Entry | undefined, at: number): entry is Entry => entry !== undefined && entry.expiresAt > at;

// One request against the cache: what it reads and writes, what it bills, and the state after it. `previous` is the
// conversation's previous request (for firstDifference and stop); the read itself depends only on `state`.
export function applyRequest(state: CacheState, request: CacheRequest, previous: readonly PromptBlock[] | null = null): { result: RequestCache; state: CacheState } {
  const blocks = promptBlocks(request.body);
  const at = request.receivedAt;
  const total = prefixSize(blocks, blocks.length);
  const marked = blocks.filter((b) => b.breakpoint !== null);
  const breakpoints = marked.map((b) => ({ ...ref(b), ttl: b.breakpoint! }));
  const min = minCacheableTokens(request.body.model);
  const entries = new Map(state.entries);
  const tooShort = new Set(state.tooShort);
  const rejected = marked.length > MAX_BREAKPOINTS ? ("too-many-breakpoints" as const) : null;

  // DOC#how-automatic-prefix-checking-works: from each breakpoint, the longest matching prefix among the boundaries
  // within the lookback; the request reads the longest over all its breakpoints.
  let readBlocks = 0;
  if (!rejected) {
    for (const bp of marked) {
      for (let i = bp.index; i >= Math.max(0, bp.index - LOOKBACK_BLOCKS); i--) {
        if (alive(entries.get(blocks[i]!.prefixKey), at)) {
          readBlocks = Math.max(readBlocks, i + 1);
          break;
        }
      }
    }
  }
  const read = prefixSize(blocks, readBlocks);
  if (readBlocks > 0) {
    const key = blocks[readBlocks - 1]!.prefixKey;
    const entry = entries.get(key)!;
    entries.set(key, { ttl: entry.ttl, expiresAt: at + TTL_MS[entry.ttl] });
  }

  // A breakpoint writes (or refreshes) the prefix up to and including its block (DOC#structuring-your-prompt: "Mark the
  // end of the reusable content for caching using the cache_control parameter"), if that prefix is long enough.
  let writtenBlocks = readBlocks;
  if (!rejected) {
    for (const bp of marked) {
      const size = prefixSize(blocks, bp.index + 1);
      if (size.tokens < min) {
        tooShort.add(bp.prefixKey);
        continue;
      }
      entries.set(bp.prefixKey, { ttl: bp.breakpoint!, expiresAt: at + TTL_MS[bp.breakpoint!] });
      writtenBlocks = Math.max(writtenBlocks, bp.index + 1);
    }
  }
  const written = prefixSize(blocks, writtenBlocks);
  const created = { bytes: written.bytes - read.bytes, tokens: written.tokens - read.tokens };
  const uncached = { bytes: total.bytes - written.bytes, tokens: total.tokens - written.tokens };

  // DOC#tracking-cache-performance: input_tokens are those "not read from or used to create a cache".
  const usage: Usage = { input_tokens: uncached.tokens, cache_creation_input_tokens: created.tokens, cache_read_input_tokens: read.tokens };
  const { firstDifference, stop } = whyStop(blocks, previous, readBlocks, state, at);
  const result: RequestCache = { blocks, total, breakpoints, rejected, read, written, created, uncached, firstDifference, stop, usage };
  return { result, state: { entries, tooShort } };
}

// Why reuse of the previous request stops where it does, judged against the cache as it was when the request arrived.
function whyStop(blocks: readonly PromptBlock[], previous: readonly PromptBlock[] | null, readBlocks: number, state: CacheState, at: number): Pick<RequestCache, "firstDifference" | "stop"> {
  if (previous === null) return { firstDifference: null, stop: "none" };
  let common = 0;
  while (common < previous.length && common < blocks.length && previous[common]!.prefixKey === blocks[common]!.prefixKey) common++;
  const differs = common < previous.length;
  const firstDifference = differs && common < blocks.length ? ref(blocks[common]!) : differs ? ref(previous[common]!) : null;
  const lastPrevBreakpoint = previous.reduce((last, b) => (b.breakpoint !== null ? b.index + 1 : last), 0);
  // Entries of the previous request inside the identical part that the request did not read, nearest the change first.
  for (let i = Math.min(common, blocks.length) - 1; i >= readBlocks; i--) {
    const key = blocks[i]!.prefixKey;
    const entry = state.entries.get(key);
    if (entry && !alive(entry, at)) return { firstDifference, stop: "expired" };
    if (alive(entry, at)) return { firstDifference, stop: "out-of-lookback" };
    if (previous[i]!.breakpoint !== null && state.tooShort.has(key)) return { firstDifference, stop: "too-short" };
  }
  if (readBlocks >= lastPrevBreakpoint) return { firstDifference, stop: "none" };
  if (readBlocks === common) return { firstDifference, stop: "changed-block" };
  return { firstDifference, stop: "no-breakpoint-before-change" };
}

// The requests of one conversation, in order: each one's reads, writes, usage and why reuse stopped where it did.
export function simulateConversation(requests: readonly CacheRequest[], initial: CacheState = emptyCacheState()): RequestCache[] {
  let state = initial;
  let previous: PromptBlock[] | null = null;
  return requests.map((request) => {
    const step = applyRequest(state, request, previous);
    state = step.state;
    previous = step.result.blocks;
    return step.result;
  });
}

// The usage one request would be billed given the cache as earlier requests left it (what the mock would answer).
/** @internal exported for its unit tests */
export function cacheUsage(state: CacheState, request: CacheRequest): Usage {
  return applyRequest(state, request).result.usage;
}
