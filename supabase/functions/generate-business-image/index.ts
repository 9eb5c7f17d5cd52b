// Supabase Edge Function generate-business-image (SPEC §7): {businessName, prompt, size} in,
// {image: <data URL>, prompt} out, through an OpenAI-compatible images API.
//
// Deploy:  supabase functions deploy generate-business-image
// Secrets: supabase secrets set IMAGES_API_KEY=<key>   (OPENAI_API_KEY is read too)
//          optional IMAGES_API_URL (default https://api.openai.com/v1), IMAGES_MODEL (default gpt-image-1)
//
// Callers: the operator job (`pnpm roland images generate`, provider supabase) with the project's
// secret key. Keep the platform's JWT check (verify_jwt, the default) on: each call spends
// images API credit, so the function must not be open to anyone.
//
// Everything but reading the secrets lives in handler.ts, which the test suite runs under Node.

import { handleGenerate, settingsFromEnv } from './handler.ts'

Deno.serve((request: Request) =>
  handleGenerate(request, {
    ...settingsFromEnv((name) => Deno.env.get(name)),
    fetch: (input, init) => fetch(input, init),
  }),
)
