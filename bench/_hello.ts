/** The ceiling: a bare `Deno.serve` answering "ok", measured with the same load generator. */
Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 0),
  hostname: "127.0.0.1",
  onListen: ({ hostname, port }) =>
    console.log(JSON.stringify({ url: `http://${hostname}:${port}` })),
}, () => new Response("ok"));
