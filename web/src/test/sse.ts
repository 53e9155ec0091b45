/** A stand-in for `GET /events/stream`: every request opens a stream that starts with `ready`, as the gateway's does. */
export function mockStream() {
  const encoder = new TextEncoder()
  const streams: { request: Request; controller: ReadableStreamDefaultController<Uint8Array> }[] = []
  const frame = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  return {
    route: (_body: unknown, request: Request) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          streams.push({ request, controller })
          controller.enqueue(frame('ready', {}))
        },
      })
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
    },
    /** Sends on the newest connection (the one the app keeps after a resubscription). */
    send(event: string, data: unknown) {
      const newest = streams.at(-1)
      if (!newest) throw new Error('no stream is open')
      newest.controller.enqueue(frame(event, data))
    },
    urls: () => streams.map((s) => new URL(s.request.url)),
    requests: () => streams.map((s) => s.request),
  }
}
