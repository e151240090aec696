/**
 * Numbers output blocks for a stream decoder. Blocks are emitted one at a time (start, deltas, stop), the
 * shape every client stream format can render (the messages format needs it): opening a new block stops
 * the open one. Each block has a key (`text`, `thinking`, `tool:<upstream index>`) so deltas find it.
 */
import type { CanonicalStreamEvent } from '../../canonical/types.js';

type BlockHead = Extract<CanonicalStreamEvent, { type: 'block_start' }>['block'];

export class BlockSequencer {
  #next = 0;
  #open: { key: string; index: number } | null = null;
  readonly #closed = new Map<string, number>();

  /** The index of the block for `key`, opening it (and stopping the open one) when it is not open. */
  open(key: string, head: BlockHead, out: CanonicalStreamEvent[]): number {
    if (this.#open?.key === key) return this.#open.index;
    this.close(out);
    const index = this.#next++;
    this.#open = { key, index };
    out.push({ type: 'block_start', index, block: head });
    return index;
  }

  /**
   * The index of an already started tool block. Upstreams send each call's arguments contiguously; should
   * one interleave, its late arguments still land on the block they belong to.
   */
  indexOf(key: string): number | undefined {
    return this.#open?.key === key ? this.#open.index : this.#closed.get(key);
  }

  close(out: CanonicalStreamEvent[]): void {
    if (!this.#open) return;
    out.push({ type: 'block_stop', index: this.#open.index });
    this.#closed.set(this.#open.key, this.#open.index);
    this.#open = null;
  }

  /** Whether a tool block was ever started (a server saying `stop` after tool calls means tool_calls). */
  get sawTool(): boolean {
    if (this.#open?.key.startsWith('tool:')) return true;
    for (const key of this.#closed.keys()) if (key.startsWith('tool:')) return true;
    return false;
  }
}
