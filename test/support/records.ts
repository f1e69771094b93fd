import type { OrderRecord, ProjectRecord } from '../../src/domain/records.ts'

/** An approved, waiting clanker project on base with an empty profile (override any field). */
export const projectRecord = (slug: string, patch: Partial<ProjectRecord> = {}): ProjectRecord => ({
  slug,
  profile: {
    identity: { slug, displayName: slug, socialId: 0, microblogHandle: null, socialUsername: '' },
    content: { bannerImageUrl: '', pfpUrl: '', bio: [], websiteUrl: '', teamMembers: [] },
    status: { isProfileRegistered: true, isLaunchVerified: true, hasSniperProtection: true },
  },
  creatorAddress: '0x00000000000000000000000000000000000000c1',
  expectedTokenAddress: null,
  launchpad: 'clanker',
  chain: 'base',
  launchMethod: 'open_market',
  ownerKeyId: null,
  status: 'approved',
  registrationId: null,
  launch: null,
  createdAt: 1,
  updatedAt: 1,
  ...patch,
})

/** An active order of 100 USDC with no price limit, valid 60 s after launch (override any field). */
export const orderRecord = (slug: string, keyId: string, patch: Partial<OrderRecord> = {}): OrderRecord => ({
  keyId,
  slug,
  status: 'active',
  maxSpendUsdc: '100',
  maxFdvUsdc: null,
  expiresInMs: 60_000,
  createdAt: 1,
  updatedAt: 1,
  ...patch,
})
