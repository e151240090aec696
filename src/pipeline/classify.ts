import type { CanonicalRequest } from '../canonical/types.js';
import type { AutoTier } from '../config/schema.js';
import type { WorkerPool } from '../pool/pool.js';

/** The svc/auto classification of a prompt, computed in the worker pool (the organization's fair share). */
export async function classifyPrompt(pool: Pick<WorkerPool, 'run'>, tenant: string, req: CanonicalRequest, promptTokens: number): Promise<AutoTier> {
  let last = '';
  for (let i = req.messages.length - 1; i >= 0 && !last; i--) {
    const m = req.messages[i]!;
    if (m.role !== 'user') continue;
    last = m.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  }
  const r = await pool.run(
    'classify',
    {
      last,
      promptTokens,
      hasTools: req.tools.length > 0,
      wantsReasoning: req.reasoning !== null,
    },
    { tenant },
  );
  return r.tier;
}
