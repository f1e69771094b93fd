import { randomBytes } from 'node:crypto'
import { toHex, type Hex } from 'viem'

/**
 * A dev-buy launch attempt's Clanker salt: 32 random bytes, kept in the service's private store and first revealed by
 * the attempt's own launch transaction.
 *
 * Why a secret, and why drawn here rather than on chain: Clanker v4 deploys the token by CREATE2 from
 * `keccak256(abi.encode(tokenAdmin, salt))` and the token's constructor arguments (name, symbol, admin, image, metadata,
 * context, chain id), and `deployToken` is permissionless; the caller is not part of the address
 * (clanker-devco/v4-contracts `src/utils/ClankerDeployer.sol`; ../shared/facts/launchpads.md, "Who launched it";
 * DevnetClankerFactory.sol does the same). Whatever salt the coordinator passed, anyone could pass the same one to the
 * factory directly, so no on-chain derivation (mixing `msg.sender`, a nonce, the launch id) makes the address private:
 * contract state is public and the factory never sees who asked for the salt. Only a salt nobody else knows does. A
 * public salt (the launch id, as before) let a stranger deploy the token first and freeze every launch attempt.
 *
 * Drawn fresh for each attempt: a failed attempt's transaction may have shown its salt (a reverted launch keeps its
 * calldata on chain), and the address it predicted is abandoned with it. An attempt resumed after a crash keeps its
 * salt (its transaction may still land). What is left: copying a pending launch transaction's deployment and getting it
 * mined first, which needs its calldata before it is mined (Base's sequencer mempool is private:
 * ../shared/facts/base-today.md); it makes that launch revert (nothing moves), binds nothing (judge-launch.ts: only
 * the coordinator's deployment binds) and the next attempt draws a new salt.
 */
export const newLaunchSalt = (): Hex => toHex(randomBytes(32))
