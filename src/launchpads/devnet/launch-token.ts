import { randomBytes } from 'node:crypto'
import {
  bytesToHex,
  encodeDeployData,
  getAddress,
  getContractAddress,
  keccak256,
  parseAbi,
  zeroAddress,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { Launchpad } from '../../domain/records.ts'
import { createLaunchpadAdapters, type LaunchpadAddresses } from '../create-adapters.ts'
import { launchDeployer } from '../launch-deployer.ts'
import type { DecodedLaunch, LaunchCandidate, PoolKey } from '../launchpad-adapter.ts'
import { DEVNET_LAUNCH_DEFAULTS } from './deploy-devnet-launchpads.ts'
import { loadLaunchpadArtifact } from './devnet-artifacts.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, submitDevnetCall, type DevnetCall } from './send-devnet-tx.ts'

/** What each devnet hook accepts as a starting fee, like the real ones: Clanker's MEV cap, Doppler's cap, Zora any. */
export const MAX_START_FEE: Record<Launchpad, number> = { clanker: 800_000, doppler: 900_000, zora: 1_000_000 }

export interface LaunchTokenOptions {
  chain: ChainConfig
  addresses: LaunchpadAddresses
  launchpad: Launchpad
  /** The token admin / creator / payout recipient the launch names (a field its sender chooses freely). */
  creator: Address
  /**
   * Impersonated: who sends the launch transaction, i.e. the factory's caller (default: the creator). A sender other
   * than the creator is how a forged launch looks: anyone can name anyone as the creator.
   */
  sender?: Address
  name: string
  symbol: string
  /** Launch fee in pips; omitted values take the launchpad's devnet default. */
  startFee?: number
  endFee?: number
  decaySeconds?: number
  /** CREATE2 salt of the token; random when omitted. */
  salt?: Hex
  /** Which side of its paired asset the token must sort on (a salt is searched for); either when omitted. */
  tokenSide?: 'currency0' | 'currency1'
}

export interface LaunchedToken {
  token: Address
  poolKey: PoolKey
  poolId: Hex
  txHash: Hex
  blockNumber: bigint
  /** The launch as the launchpad adapter decodes it from the real log. */
  launch: LaunchCandidate
}

/** Launches a token on a devnet launchpad as `creator` (impersonated), like a real creator would. */
export async function launchToken(options: LaunchTokenOptions): Promise<LaunchedToken> {
  const hash = await submitLaunch(options)
  const receipt = await confirmDevnetTx(options.chain, hash)
  const decoded = await decodeOwnLaunch(options.chain, options.addresses, options.launchpad, receipt)
  if (decoded.kind === 'unsupported') {
    throw new PrebuyError('launch_unsupported', `The ${options.launchpad} launch is not one prebuy can buy: ${decoded.reason}.`)
  }
  const launch = decoded.candidate
  return { token: launch.token, poolKey: launch.poolKey, poolId: launch.poolId, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, launch }
}

/** Sends the launch transaction without waiting for it (tests that put a snipe in the same block). */
export async function submitLaunch(options: LaunchTokenOptions): Promise<Hex> {
  const { chain, launchpad, creator } = options
  const defaults = DEVNET_LAUNCH_DEFAULTS[launchpad]
  const startFee = options.startFee ?? defaults.startFee
  const endFee = options.endFee ?? defaults.endFee
  const decaySeconds = options.decaySeconds ?? defaults.decaySeconds
  const cap = MAX_START_FEE[launchpad]
  if (
    ![startFee, endFee, decaySeconds].every((v) => Number.isInteger(v) && v >= 0) ||
    startFee > cap ||
    endFee > startFee ||
    decaySeconds < 1 ||
    decaySeconds > 2 ** 32 - 1
  ) {
    throw new PrebuyError(
      'invalid_launch_fee',
      `Launch fees are pips (0..${cap.toLocaleString('en-US')} on ${launchpad}) with end fee <= start fee, and decay is a whole number of seconds >= 1.`,
    )
  }

  if (launchpad === 'zora' && (options.startFee !== undefined || options.endFee !== undefined || options.decaySeconds !== undefined)) {
    throw new PrebuyError('invalid_launch_fee', "Zora's launch fee is fixed by its coin hook (99% to 1% over 10 s): no fee options on zora.")
  }
  const salt = options.salt ?? (await pickSalt(options))
  const sender = options.sender ?? creator
  await impersonate(chain, sender)
  return submitDevnetCall(chain, sender, launchCall(options, startFee, endFee, decaySeconds, salt))
}

const SUPPLY_ABI = parseAbi(['function TOKEN_SUPPLY() view returns (uint256)'])

const launchpadAddress = (o: Pick<LaunchTokenOptions, 'addresses' | 'launchpad'>): Address =>
  o.launchpad === 'clanker' ? o.addresses.clanker.factory : o.launchpad === 'doppler' ? o.addresses.doppler.airlock : o.addresses.zora.factory

/** Where the launchpad will CREATE2 the token for this salt (the token's constructor arguments are part of it). */
export async function predictTokenAddress(o: Pick<LaunchTokenOptions, 'chain' | 'addresses' | 'launchpad' | 'name' | 'symbol'>, salt: Hex): Promise<Address> {
  const from = launchpadAddress(o)
  const supply = await devnetPublicClient(o.chain).readContract({ address: from, abi: SUPPLY_ABI, functionName: 'TOKEN_SUPPLY' })
  const { abi, bytecode } = loadLaunchpadArtifact('DevnetLaunchToken')
  const initCode = encodeDeployData({ abi, bytecode, args: [o.name, o.symbol, supply, from] })
  return getContractAddress({ opcode: 'CREATE2', from, salt, bytecodeHash: keccak256(initCode) })
}

async function pickSalt(o: LaunchTokenOptions): Promise<Hex> {
  for (let i = 0; i < 256; i++) {
    const salt = bytesToHex(randomBytes(32))
    if (!o.tokenSide) return salt
    const token = await predictTokenAddress(o, salt)
    // Zora coins pair with native ETH (address 0): always currency1.
    const paired = o.launchpad === 'zora' ? zeroAddress : o.chain.addresses.weth
    const before = token.toLowerCase() < paired.toLowerCase()
    if (before === (o.tokenSide === 'currency0')) return salt
  }
  throw new PrebuyError('no_token_salt', `No salt puts the token on the ${o.tokenSide} side of its paired asset.`)
}

function launchCall(o: LaunchTokenOptions, startFee: number, endFee: number, decaySeconds: number, salt: Hex): DevnetCall {
  switch (o.launchpad) {
    case 'clanker':
      return {
        address: o.addresses.clanker.factory,
        abi: loadLaunchpadArtifact('DevnetClankerFactory').abi,
        functionName: 'deployToken',
        args: [
          {
            name: o.name,
            symbol: o.symbol,
            tokenAdmin: o.creator,
            image: '',
            metadata: '',
            context: 'prebuy devnet',
            startingFee: startFee,
            endingFee: endFee,
            secondsToDecay: BigInt(decaySeconds),
            salt,
          },
        ],
      }
    case 'doppler':
      return {
        address: o.addresses.doppler.airlock,
        abi: loadLaunchpadArtifact('DevnetDopplerAirlock').abi,
        functionName: 'create',
        args: [{ name: o.name, symbol: o.symbol, creator: o.creator, startFee, endFee, durationSeconds: decaySeconds, salt }],
      }
    case 'zora':
      return {
        address: o.addresses.zora.factory,
        abi: loadLaunchpadArtifact('DevnetZoraFactory').abi,
        functionName: 'deploy',
        args: [
          {
            payoutRecipient: o.creator,
            platformReferrer: zeroAddress,
            uri: '',
            name: o.name,
            symbol: o.symbol,
            salt,
          },
        ],
      }
  }
}

/** Decodes the launch with the production adapter, from the receipt's real log: the devnet proves the adapter. */
export async function decodeOwnLaunch(
  chain: ChainConfig,
  addresses: LaunchpadAddresses,
  launchpad: Launchpad,
  receipt: TransactionReceipt,
): Promise<DecodedLaunch> {
  const client = devnetPublicClient(chain)
  const adapter = createLaunchpadAdapters({
    poolManager: chain.addresses.poolManager,
    weth: chain.addresses.weth,
    clanker: { factory: addresses.clanker.factory },
    doppler: { airlock: addresses.doppler.airlock },
    zora: { factory: addresses.zora.factory },
  })[launchpad]
  const block = await client.getBlock({ blockHash: receipt.blockHash })
  const ctx = {
    client,
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    blockTimestamp: Number(block.timestamp),
    txFrom: getAddress(receipt.from),
    txLogs: receipt.logs,
  }
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== adapter.launchEvent.address.toLowerCase()) continue
    const launch = await adapter.decodeLaunch(log, { ...ctx, deployer: launchDeployer(ctx.txFrom, receipt.logs, log) })
    if (launch) return launch
  }
  throw new PrebuyError('launch_not_decoded', `The ${launchpad} launch transaction carries no launch event the adapter understands.`)
}
