import * as React from 'react'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { FormulaDemo, StepsDemo } from './demos'

export type MdxPart = { kind: 'markdown'; source: string } | { kind: 'formula' } | { kind: 'steps' }

const DEMO_LINE = /^\s*<(FormulaDemo|StepsDemo)\s*\/>\s*$/

/** Split Markdown source on lines that are exactly `<FormulaDemo />` or `<StepsDemo />`. */
export function splitMdx(source: string): MdxPart[] {
  const parts: MdxPart[] = []
  let buffer: string[] = []
  const flush = () => {
    const text = buffer.join('\n')
    if (text.trim()) parts.push({ kind: 'markdown', source: text })
    buffer = []
  }
  for (const line of source.split(/\r?\n/)) {
    const m = DEMO_LINE.exec(line)
    if (m) {
      flush()
      parts.push({ kind: m[1] === 'FormulaDemo' ? 'formula' : 'steps' })
    } else buffer.push(line)
  }
  flush()
  return parts
}

export function Markdown({ source }: { source: string }) {
  return <ReactMarkdown remarkPlugins={[remarkGfm]}>{source}</ReactMarkdown>
}

export function MdxContent({ source }: { source: string }) {
  const parts = React.useMemo(() => splitMdx(source), [source])
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'markdown' ? <Markdown key={i} source={p.source} /> : p.kind === 'formula' ? <FormulaDemo key={i} /> : <StepsDemo key={i} />,
      )}
    </>
  )
}

export class RenderBoundary extends React.Component<{ fallback: React.ReactNode; children: React.ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
