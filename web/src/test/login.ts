/* The login page as a person fills it in, for the tests that sign in through it. */
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'

/** Types the email and the password on /login and presses Log In. */
export async function logIn(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email)
  await userEvent.type(screen.getByLabelText('Password'), password)
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
}

/** The second step: types `code` into "Authentication code" (emptied first with `clear`) and presses Log In. */
export async function sendCode(code: string, { clear = false } = {}) {
  const field = screen.getByLabelText('Authentication code')
  if (clear) await userEvent.clear(field)
  await userEvent.type(field, code)
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
}
