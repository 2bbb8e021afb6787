import { Type } from 'typebox';
import { TIERS } from '../../domain/tier.js';
import { Body, Query } from '../schema-kit.js';

export const AgentName = Type.String({
  minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._\\-]*$',
  description: 'letters, digits, space, dot, underscore, hyphen; starts with a letter or digit',
});
export const Email = Type.String({ maxLength: 254, pattern: '^[^\\s@<>(),;:"]+@[^\\s@<>(),;:"]+\\.[^\\s@<>(),;:"]+$' });
export const TierName = Type.Union([
  Type.Literal('unverified'), Type.Literal('free'), Type.Literal('basic'), Type.Literal('pro'), Type.Literal('enterprise'),
], { description: `one of ${TIERS.join(', ')}` });

export const RegisterQuery = Query({
  verify: Type.Optional(Type.Boolean({ description: 'false: no email check; default true when an email is given' })),
});
export const RegisterBody = Body({ agent_name: AgentName, email: Type.Optional(Email) });

export const Limits = Type.Object({ per_minute: Type.Integer(), per_day: Type.Union([Type.Integer(), Type.Null()]) });
export const RegisterResponse = Type.Object({
  api_key: Type.String(), key_id: Type.Integer(), prefix: Type.String(), tier: TierName, limits: Limits,
  verification: Type.Union([Type.Object({ status: Type.Literal('pending'), email: Type.String(), expires_at: Type.String() }), Type.Null()]),
  message: Type.String(),
});

export const VerifyQuery = Query({ token: Type.String({ minLength: 1, maxLength: 200 }) });

const Usage = Type.Object({
  used: Type.Integer(), limit: Type.Union([Type.Integer(), Type.Null()]), remaining: Type.Union([Type.Integer(), Type.Null()]), reset_at: Type.String(),
});
export const MeResponse = Type.Object({
  key_id: Type.Integer(), prefix: Type.String(), name: Type.Union([Type.String(), Type.Null()]), tier: TierName,
  pending_tier: Type.Union([TierName, Type.Null()]), pending_tier_at: Type.Union([Type.String(), Type.Null()]),
  verified: Type.Boolean(), created_at: Type.String(), auth: Type.Union([Type.Literal('api_key'), Type.Literal('oauth')]),
  client_id: Type.Optional(Type.String()), scope: Type.Optional(Type.String()),
  limits: Limits, usage: Type.Object({ minute: Usage, day: Usage }),
});

export const RotateResponse = Type.Object({ api_key: Type.String(), key_id: Type.Integer(), prefix: Type.String(), message: Type.String() });

export const SetTierParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64, description: 'key id or key prefix' }) });
export const SetTierBody = Body({ tier: TierName });

export const ClientRegistration = Type.Object({
  client_name: Type.String({ minLength: 1, maxLength: 100 }),
  client_type: Type.Optional(Type.Union([Type.Literal('confidential'), Type.Literal('public')])),
  token_endpoint_auth_method: Type.Optional(Type.String({ maxLength: 50 })),
  grant_types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10 })),
  scope: Type.Optional(Type.String({ maxLength: 500 })),
});

/** Loose on purpose: RFC 6749 wants `invalid_request` for a bad token request, not a schema 422. */
export const TokenRequest = Type.Object({
  grant_type: Type.Optional(Type.String()), client_id: Type.Optional(Type.String()), client_secret: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
});
export const TokenOnlyRequest = Type.Object({
  token: Type.Optional(Type.String()), token_type_hint: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()), client_secret: Type.Optional(Type.String()),
});
