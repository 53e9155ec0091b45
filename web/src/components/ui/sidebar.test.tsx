import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Sidebar, SidebarContent, SidebarProvider, SidebarTrigger, SIDEBAR_COOKIE_MAX_AGE, useSidebar } from './sidebar'

function State() {
  const { state } = useSidebar()
  return <output data-testid="state">{state}</output>
}

function Harness() {
  return (
    <SidebarProvider>
      <Sidebar>
        <SidebarContent>menu</SidebarContent>
      </Sidebar>
      <SidebarTrigger />
      <State />
    </SidebarProvider>
  )
}

const state = () => screen.getByTestId('state').textContent
let writes: string[] = []
/** document.cookie's accessors, wherever on the document's prototype chain the DOM implementation keeps them. */
function cookieAccessors(): PropertyDescriptor {
  for (let o = Object.getPrototypeOf(document); o; o = Object.getPrototypeOf(o)) {
    const found = Object.getOwnPropertyDescriptor(o, 'cookie')
    if (found) return found
  }
  throw new Error('document.cookie has no accessors')
}
const proto = cookieAccessors()

beforeEach(() => {
  writes = []
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => proto.get!.call(document),
    set: (v: string) => {
      writes.push(v)
      proto.set!.call(document, v)
    },
  })
})
afterEach(() => {
  delete (document as unknown as { cookie?: string }).cookie
})

describe('sidebar', () => {
  it('is 7 days', () => {
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(604800)
  })

  it('starts expanded and stores its state in a 7-day cookie when toggled', async () => {
    render(<Harness />)
    expect(state()).toBe('expanded')
    await userEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }))
    expect(state()).toBe('collapsed')
    expect(writes.at(-1)).toMatch(/^sidebar_state=false; path=\/; max-age=604800/)
    expect(document.cookie).toContain('sidebar_state=false')
  })

  it('restores the state from the cookie', () => {
    document.cookie = 'sidebar_state=false; path=/'
    render(<Harness />)
    expect(state()).toBe('collapsed')
  })

  it('Ctrl+B and Cmd+B toggle it', () => {
    render(<Harness />)
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true })
    expect(state()).toBe('collapsed')
    expect(writes.at(-1)).toContain('sidebar_state=false')
    fireEvent.keyDown(window, { key: 'b', metaKey: true })
    expect(state()).toBe('expanded')
    expect(writes.at(-1)).toContain('sidebar_state=true')
    fireEvent.keyDown(window, { key: 'b' })
    expect(state()).toBe('expanded')
  })
})
