import { wrapFetchWithPayment } from 'x402-fetch';

declare const wallet: unknown;
const payFetch = wrapFetchWithPayment(fetch, wallet);

export async function buyQuote(symbol: string): Promise<unknown> {
  const response = await payFetch(`https://quotes.example/paid/${symbol}`);
  return response.json();
}
