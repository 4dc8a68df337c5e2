// A Next.js route whose path names a webhook.
import { issueRefund } from '../../../../src/payments';

export async function POST(request: Request) {
  const body = await request.json();
  await issueRefund(body.charge, 100);
  return Response.json({ ok: true });
}
