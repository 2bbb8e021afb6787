import { Type } from 'typebox';
import { OAUTH_SCOPES } from '../../accounts/oauth.js';
import { TIERS } from '../../domain/tier.js';
import { Body, Nullable, OneOf, Query } from '../schema-kit.js';

export const AgentName = Type.String({
  minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._\\-]*$',
  description: 'letters, digits, space, dot, underscore, hyphen; starts with a letter or digit',
});
export const Email = Type.String({ maxLength: 254, pattern: '^[^\\s@<>(),;:"]+@[^\\s@<>(),;:"]+\\.[^\\s@<>(),;:"]+$' });
export const TierName = OneOf(TIERS, { description: `one of ${TIERS.join(', ')}` });

export const RegisterQuery = Query({
  verify: Type.Optional(Type.Boolean({ description: 'false: no email check; default true when an email is given' })),
});
export const RegisterBody = Body({ agent_name: AgentName, email: Type.Optional(Email) });

export const Limits = Type.Object({ per_minute: Type.Integer(), per_day: Type.Union([Type.Integer(), Type.Null()]) });
export const RegisterResponse = Type.Object({
  api_key: Type.String(), key_id: Type.Integer(), prefix: Type.String(), tier: TierName, limits: Limits,
  verification: Nullable(Type.Object({ status: OneOf(['pending']), email: Type.String(), expires_at: Type.String() })),
  message: Type.String(),
});

export const VerifyQuery = Query({ token: Type.String({ minLength: 1, maxLength: 200, description: 'the token of the link in the verification mail' }) });
export const VerifyResponse = Type.Object({ verified: Type.Boolean(), key_id: Type.Integer(), prefix: Type.String(), tier: TierName, message: Type.String() });

const Usage = Type.Object({
  used: Type.Integer(), limit: Type.Union([Type.Integer(), Type.Null()]), remaining: Type.Union([Type.Integer(), Type.Null()]), reset_at: Type.String(),
});
export const MeResponse = Type.Object({
  key_id: Type.Integer(), prefix: Type.String(), name: Type.Union([Type.String(), Type.Null()]), tier: TierName,
  pending_tier: Nullable(TierName), pending_tier_at: Nullable(Type.String()),
  verified: Type.Boolean(), created_at: Type.String(), auth: OneOf(['api_key', 'oauth'], { description: 'how the request authenticated' }),
  client_id: Type.Optional(Type.String()), scope: Type.Optional(Type.String()),
  limits: Limits, usage: Type.Object({ minute: Usage, day: Usage }),
});

export const RotateResponse = Type.Object({ api_key: Type.String(), key_id: Type.Integer(), prefix: Type.String(), message: Type.String() });

export const SetTierParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64, description: 'key id or key prefix' }) });
export const SetTierBody = Body({ tier: TierName });
export const SetTierResponse = Type.Object({
  key_id: Type.Integer(), prefix: Type.String(), tier: TierName, pending_tier: Nullable(TierName), pending_tier_at: Nullable(Type.String()),
  effective: OneOf(['now', 'cycle_end'], { description: 'an upgrade applies now, a downgrade at the end of the billing cycle' }), effective_at: Type.String(),
});

export const ClientRegistration = Type.Object({
  client_name: Type.String({ minLength: 1, maxLength: 100 }),
  client_type: Type.Optional(OneOf(['confidential', 'public'])),
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

const Scopes = Type.Array(OneOf(OAUTH_SCOPES));
export const AuthServerMetadata = Type.Object({
  issuer: Type.String(), authorization_endpoint: Type.String(), token_endpoint: Type.String(), registration_endpoint: Type.String(),
  revocation_endpoint: Type.String(), introspection_endpoint: Type.String(), grant_types_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.String()), token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()), introspection_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Scopes, service_documentation: Type.String(),
}, { description: 'RFC 8414 authorization server metadata' });
export const ProtectedResource = Type.Object({
  resource: Type.String(), authorization_servers: Type.Array(Type.String()), bearer_methods_supported: Type.Array(Type.String()),
  scopes_supported: Scopes, resource_name: Type.String(), resource_documentation: Type.String(),
}, { description: 'RFC 9728 protected resource metadata' });
export const RegisteredClient = Type.Object({
  client_id: Type.String(), client_secret: Type.Optional(Type.String({ description: 'confidential clients only; shown only now' })),
  client_id_issued_at: Type.Integer(), client_secret_expires_at: Type.Integer({ description: '0: never' }), client_name: Type.String(),
  client_type: OneOf(['confidential', 'public']), token_endpoint_auth_method: Type.String(), grant_types: Type.Array(Type.String()), scope: Type.String(),
}, { description: 'RFC 7591 client information' });
export const TokenResponse = Type.Object({
  access_token: Type.String(), token_type: OneOf(['Bearer']), expires_in: Type.Integer({ description: 'seconds' }), scope: Type.String(),
});
export const Introspection = Type.Object({
  active: Type.Boolean(), scope: Type.Optional(Type.String()), client_id: Type.Optional(Type.String()), token_type: Type.Optional(Type.String()),
  exp: Type.Optional(Type.Integer()), iat: Type.Optional(Type.Integer()), sub: Type.Optional(Type.String()),
}, { description: 'RFC 7662: only `active` when the token is not an active one of the calling client' });
