/**
 * PLACEHOLDER written by hand until contracts/openapi.json exists.
 * Replace with `npm run gen:api` (openapi-typescript) — do not edit the generated file.
 */
export interface paths {
  '/auth/me': { get: { responses: { 200: { content: { 'application/json': components['schemas']['User'] } } } } }
  '/auth/login': {
    post: {
      requestBody: { content: { 'application/json': components['schemas']['LoginRequest'] } }
      responses: { 200: { content: { 'application/json': components['schemas']['AuthResponse'] } } }
    }
  }
  '/auth/register': {
    post: {
      requestBody: { content: { 'application/json': components['schemas']['RegisterRequest'] } }
      responses: { 201: { content: { 'application/json': components['schemas']['AuthResponse'] } } }
    }
  }
  '/auth/profile': {
    put: {
      requestBody: { content: { 'application/json': { name: string; email: string } } }
      responses: { 200: { content: { 'application/json': components['schemas']['User'] } } }
    }
  }
  '/auth/change-password': {
    post: {
      requestBody: { content: { 'application/json': { currentPassword: string; newPassword: string } } }
      responses: { 200: { content: { 'application/json': { token: string } } } }
    }
  }
  '/auth/forgot-password': {
    post: {
      requestBody: { content: { 'application/json': { email: string } } }
      responses: { 202: { content: { 'application/json': components['schemas']['Detail'] } } }
    }
  }
  '/auth/reset-password': {
    post: {
      requestBody: { content: { 'application/json': { token: string; newPassword: string } } }
      responses: { 200: { content: { 'application/json': components['schemas']['Detail'] } } }
    }
  }
  '/notifications': {
    get: { responses: { 200: { content: { 'application/json': components['schemas']['Notification'][] } } } }
  }
  '/notifications/preferences': {
    get: { responses: { 200: { content: { 'application/json': components['schemas']['NotificationPreferences'] } } } }
    post: {
      requestBody: { content: { 'application/json': components['schemas']['NotificationPreferences'] } }
      responses: { 200: { content: { 'application/json': components['schemas']['NotificationPreferences'] } } }
    }
  }
  '/instagram/connect': {
    get: { responses: { 200: { content: { 'application/json': { url: string } } } } }
  }
}

export interface components {
  schemas: {
    Detail: { detail: string }
    LoginRequest: { email: string; password: string }
    RegisterRequest: {
      name: string
      email: string
      password: string
      role: 'INFLUENCER' | 'BUYER'
      instagramHandle?: string | null
      businessName?: string | null
    }
    AuthResponse: { token: string; user: components['schemas']['User'] }
    InfluencerProfile: { avgViews: number; followers: number; avgEngagement: number; verified: boolean }
    User: {
      id: string
      name: string
      email: string
      role: 'INFLUENCER' | 'BUYER'
      businessName: string | null
      instagramHandle: string | null
      instagramId: string | null
      instagramConnected: boolean
      influencerProfile: components['schemas']['InfluencerProfile'] | null
      createdAt: string
    }
    Notification: { id: string; title: string; message: string; createdAt: string; read: boolean }
    NotificationPreferences: { newBids: boolean; approvals: boolean; payouts: boolean; marketing: boolean }
  }
}
