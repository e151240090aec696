/** Every simulated provider; a new provider is one folder and one line here. */
import type { Dialect } from './dialect.js';
import { openaiDialect } from './openai/index.js';

export const DIALECTS: readonly Dialect[] = [openaiDialect];
