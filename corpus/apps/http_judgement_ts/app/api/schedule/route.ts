export async function POST(req: Request) {
  const { text, at } = await req.json();
  const response = await fetch('https://api.network.example/v2/scheduled', {
    method: 'POST',
    body: JSON.stringify({ text, at }),
  });
  return Response.json({ ok: response.ok });
}
