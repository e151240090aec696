/**
 * One driver per client format: each runs a plain-text call or a tool round trip through the official SDK
 * (stream or not) and returns what the client saw, normalised for the matrix assertions.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

export interface Seen {
  text: string;
  /** Tool call of the first leg of a round trip. */
  tool: { name: string; args: Record<string, unknown> } | null;
  /** Format-specific finish/stop reason of the last leg. */
  finish: string | null;
  /** First-leg finish (tool rounds). */
  toolFinish: string | null;
  /** Usage the client saw (input incl. cache tokens, output) on the last leg, when the format reports it. */
  usage: { input: number; output: number } | null;
  requestIds: string[];
  headers: Headers;
}

export type Kind = 'text' | 'tool';
export type Driver = (model: string, stream: boolean, kind: Kind) => Promise<Seen>;

const WEATHER_Q = 'What is the weather in Paris?';
const TEXT_Q = 'Say something friendly about the sea.';
const TOOL_RESULT = '{"temperature_c": 22, "sky": "sunny"}';
const SCHEMA = { type: 'object' as const, properties: { location: { type: 'string' } }, required: ['location'] };

const parseArgs = (s: string): Record<string, unknown> => JSON.parse(s || '{}') as Record<string, unknown>;

export function chatDriver(client: OpenAI): Driver {
  const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: SCHEMA } }];
  return async (model, stream, kind) => {
    const ids: string[] = [];
    let headers = new Headers();
    const leg = async (messages: OpenAI.ChatCompletionMessageParam[], withTools: boolean) => {
      const body = { model, messages, max_tokens: 200, ...(withTools ? { tools } : {}) };
      if (!stream) {
        const { data, response } = await client.chat.completions.create(body).withResponse();
        ids.push(response.headers.get('x-svc-request-id')!);
        headers = response.headers;
        const c = data.choices[0]!;
        const tc = c.message.tool_calls?.[0];
        return {
          text: c.message.content ?? '',
          tool: tc && tc.type === 'function' ? { id: tc.id, name: tc.function.name, args: tc.function.arguments } : null,
          finish: c.finish_reason as string,
          usage: { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens },
        };
      }
      const { data, response } = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }).withResponse();
      ids.push(response.headers.get('x-svc-request-id')!);
      headers = response.headers;
      let text = '';
      let finish: string | null = null;
      let usage: { input: number; output: number } | null = null;
      const tool = { id: '', name: '', args: '' };
      for await (const chunk of data) {
        if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
        const c = chunk.choices[0];
        if (!c) continue;
        text += c.delta.content ?? '';
        for (const t of c.delta.tool_calls ?? []) {
          tool.id ||= t.id ?? '';
          tool.name += t.function?.name ?? '';
          tool.args += t.function?.arguments ?? '';
        }
        if (c.finish_reason) finish = c.finish_reason;
      }
      return { text, tool: tool.name ? tool : null, finish, usage };
    };
    if (kind === 'text') {
      const r = await leg([{ role: 'user', content: TEXT_Q }], false);
      return { text: r.text, tool: null, finish: r.finish, toolFinish: null, usage: r.usage, requestIds: ids, headers };
    }
    const first = await leg([{ role: 'user', content: WEATHER_Q }], true);
    if (!first.tool) return { text: first.text, tool: null, finish: first.finish, toolFinish: first.finish, usage: first.usage, requestIds: ids, headers };
    const second = await leg(
      [
        { role: 'user', content: WEATHER_Q },
        { role: 'assistant', content: null, tool_calls: [{ id: first.tool.id, type: 'function', function: { name: first.tool.name, arguments: first.tool.args } }] },
        { role: 'tool', tool_call_id: first.tool.id, content: TOOL_RESULT },
      ],
      true,
    );
    return {
      text: second.text,
      tool: { name: first.tool.name, args: parseArgs(first.tool.args) },
      finish: second.finish,
      toolFinish: first.finish,
      usage: second.usage,
      requestIds: ids,
      headers,
    };
  };
}

export function completionsDriver(client: OpenAI): Driver {
  return async (model, stream) => {
    const body = { model, prompt: TEXT_Q, max_tokens: 200 };
    if (!stream) {
      const { data, response } = await client.completions.create(body).withResponse();
      const c = data.choices[0]!;
      return {
        text: c.text,
        tool: null,
        finish: c.finish_reason,
        toolFinish: null,
        usage: { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens },
        requestIds: [response.headers.get('x-svc-request-id')!],
        headers: response.headers,
      };
    }
    const { data, response } = await client.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }).withResponse();
    let text = '';
    let finish: string | null = null;
    let usage: { input: number; output: number } | null = null;
    for await (const chunk of data) {
      if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
      const c = chunk.choices[0];
      if (c) {
        text += c.text;
        if (c.finish_reason) finish = c.finish_reason;
      }
    }
    return { text, tool: null, finish, toolFinish: null, usage, requestIds: [response.headers.get('x-svc-request-id')!], headers: response.headers };
  };
}

export function responsesDriver(client: OpenAI): Driver {
  const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', description: 'Weather by city', parameters: SCHEMA, strict: false }];
  return async (model, stream, kind) => {
    const ids: string[] = [];
    let headers = new Headers();
    const leg = async (input: OpenAI.Responses.ResponseInput | string, withTools: boolean): Promise<OpenAI.Responses.Response> => {
      const body = { model, input, max_output_tokens: 200, ...(withTools ? { tools } : {}) };
      if (!stream) {
        const { data, response } = await client.responses.create(body).withResponse();
        ids.push(response.headers.get('x-svc-request-id')!);
        headers = response.headers;
        return data;
      }
      const { data, response } = await client.responses.create({ ...body, stream: true }).withResponse();
      ids.push(response.headers.get('x-svc-request-id')!);
      headers = response.headers;
      let done: OpenAI.Responses.Response | null = null;
      for await (const ev of data) if (ev.type === 'response.completed' || ev.type === 'response.incomplete') done = ev.response;
      if (!done) throw new Error('no response.completed event');
      return done;
    };
    // `output_text` is an SDK convenience on non-stream results only: read the output items.
    const textOf = (r: OpenAI.Responses.Response): string =>
      r.output.map((o) => (o.type === 'message' ? o.content.map((c) => (c.type === 'output_text' ? c.text : '')).join('') : '')).join('');
    const seen = (r: OpenAI.Responses.Response) => ({
      text: textOf(r),
      finish: r.status ?? null,
      usage: r.usage ? { input: r.usage.input_tokens, output: r.usage.output_tokens } : null,
    });
    if (kind === 'text') {
      const r = seen(await leg(TEXT_Q, false));
      return { ...r, tool: null, toolFinish: null, requestIds: ids, headers };
    }
    const first = await leg(WEATHER_Q, true);
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');
    if (!call) return { ...seen(first), tool: null, toolFinish: first.status ?? null, requestIds: ids, headers };
    const second = await leg(
      [
        { role: 'user', content: WEATHER_Q },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: TOOL_RESULT },
      ],
      true,
    );
    return { ...seen(second), tool: { name: call.name, args: parseArgs(call.arguments) }, toolFinish: 'function_call', requestIds: ids, headers };
  };
}

export function messagesDriver(client: Anthropic): Driver {
  const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather by city', input_schema: SCHEMA }];
  return async (model, stream, kind) => {
    const ids: string[] = [];
    let headers = new Headers();
    const leg = async (messages: Anthropic.MessageParam[], withTools: boolean): Promise<Anthropic.Message> => {
      const body = { model, max_tokens: 200, messages, ...(withTools ? { tools } : {}) };
      if (!stream) {
        const { data, response } = await client.messages.create(body).withResponse();
        ids.push(response.headers.get('x-svc-request-id')!);
        headers = response.headers;
        return data;
      }
      const s = client.messages.stream(body);
      const { response } = await s.withResponse();
      ids.push(response.headers.get('x-svc-request-id')!);
      headers = response.headers;
      return s.finalMessage();
    };
    const seen = (m: Anthropic.Message) => ({
      text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
      finish: m.stop_reason,
      usage: {
        input: m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0) + (m.usage.cache_creation_input_tokens ?? 0),
        output: m.usage.output_tokens,
      },
    });
    if (kind === 'text') return { ...seen(await leg([{ role: 'user', content: TEXT_Q }], false)), tool: null, toolFinish: null, requestIds: ids, headers };
    const first = await leg([{ role: 'user', content: WEATHER_Q }], true);
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (!use) return { ...seen(first), tool: null, toolFinish: first.stop_reason, requestIds: ids, headers };
    const second = await leg(
      [
        { role: 'user', content: WEATHER_Q },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: TOOL_RESULT }] },
      ],
      true,
    );
    return { ...seen(second), tool: { name: use.name, args: use.input as Record<string, unknown> }, toolFinish: first.stop_reason, requestIds: ids, headers };
  };
}
