/** Every simulated provider; a new provider is one folder and one line here. */
import { azureDialect } from './azure/index.js';
import type { Dialect } from './dialect.js';
import { geminiDialect } from './gemini/index.js';
import { mistralDialect } from './mistral/index.js';
import { anthropicDialect } from './anthropic/index.js';
import { bedrockDialect } from './bedrock/index.js';
import { openaiDialect } from './openai/index.js';

// First match wins: mistral's `/mistral/v1/chat/completions` marker route must precede openai's suffix route.
export const DIALECTS: readonly Dialect[] = [mistralDialect, openaiDialect, azureDialect, geminiDialect, anthropicDialect, bedrockDialect];
