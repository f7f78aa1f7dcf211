import type { FastifyInstance } from 'fastify';

/** Signs a bench's person up through the app (no socket): their token and id. */
export async function signUpThrough(app: FastifyInstance, username: string, fullname = 'Bench Person') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { fullname, email: `${username}@example.com`, username, password: 'correct horse battery' },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return { token: response.json().encodedToken as string, id: response.json().createdUser._id as string };
}
