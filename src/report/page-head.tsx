/** @jsxImportSource hono/jsx */

/** The <head> of agentest's static pages (run report, leaderboard): self-contained, styles inline. */
export function PageHead(props: { title: string; css: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="generator" content="agentest" />
      <title>{props.title}</title>
      <style dangerouslySetInnerHTML={{ __html: props.css }} />
    </head>
  )
}
