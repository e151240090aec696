/**
 * Money is integer nano-USD (1e-9 USD) everywhere inside the gateway: balances, holds, costs, budgets.
 * Provider list prices are quoted in USD per million tokens; 1 USD/M tokens == 1000 nano-USD per token, so a
 * per-token price may be fractional nano-USD (e.g. $0.01875/M = 18.75 nUSD/token) and a request's cost is
 * rounded once, to the nearest nano-USD, after summing all its parts.
 */
export type NanoUsd = number;

export const NANO_PER_USD = 1_000_000_000;

export function usdToNano(usd: number): NanoUsd {
  return Math.round(usd * NANO_PER_USD);
}

/** Exact decimal rendering of a nano-USD amount as USD, trailing zeros trimmed (e.g. 1234 -> "0.000001234"). */
export function formatUsd(nano: NanoUsd): string {
  const neg = nano < 0;
  const abs = Math.abs(Math.round(nano));
  const whole = Math.floor(abs / NANO_PER_USD);
  const frac = String(abs % NANO_PER_USD).padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? '.' + frac : ''}`;
}
