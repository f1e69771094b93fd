import {
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeDeployData,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  toHex,
  zeroAddress,
  zeroHash,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
} from 'viem'
import type { ChainAddresses } from '../../src/chain/chain-keys.ts'
import { CREATE2_DEPLOYER_ADDRESS, ENTRY_POINT_V07_ADDRESS, MULTICALL3_ADDRESS, PERMIT2_ADDRESS } from '../../src/chain/canonical-addresses.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { silentLogger, type Logger } from '../../src/common/logger.ts'
import { loadArtifact, type ArtifactName } from './artifacts.ts'
import { constructAt } from './construct-at.ts'
import { placeKernel } from './place-kernel.ts'
import { BASE_DEFAULT_ADDRESSES } from '../../src/chain/real-chains.ts'
import { isqrt } from '../../src/pricing/isqrt.ts'

/** The devnet ETH price the v3 WETH/USDC pool starts at. */
export const DEVNET_ETH_PRICE_USDC = 3_000n
/** Liquidity seeded into the v3 pool: deep enough that hundreds of test buys barely move the price. */
export const DEVNET_POOL_WETH = 2_000n * 10n ** 18n
export const DEVNET_POOL_USDC = (DEVNET_POOL_WETH * DEVNET_ETH_PRICE_USDC) / 10n ** 12n
export const V3_POOL_FEE = 500
/** Full range for tick spacing 10 (the 0.05% tier). */
const V3_MIN_TICK = -887_270
/** Observation slots of the devnet's WETH/USDC pool (its TWAP's history). */
const DEVNET_ETH_USD_OBSERVATIONS = 200
const V3_MAX_TICK = 887_270
/** PositionManager's gas cap for notifying subscribers on unsubscribe; v4-periphery's deploy script uses 300k. */
const UNSUBSCRIBE_GAS_LIMIT = 300_000n
/**
 * Salts of the two contracts that reach their canonical address through the deterministic CREATE2 deployer, exactly as
 * on every chain (../shared/facts/base-today.md, "Canonical contracts": EntryPoint v0.7's salt, and salt 0 for the
 * SimpleAccountFactory v0.7 with the EntryPoint as its argument; both computed to give the Base addresses).
 */
export const ENTRY_POINT_V07_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'
export const ACCOUNT_FACTORY_SALT: Hex = zeroHash

export interface DeployFixturesOptions {
  rpcUrl: string
  chainId: number
  /** Funded anvil account that deploys and owns everything (and is the stablecoin's minter). */
  deployer: LocalAccount
  logger?: Logger
}

/**
 * Deploys every contract the service needs on a fresh anvil chain, each at its real Base address (the same on the second
 * chain), and returns those addresses. Needs automine (each transaction is awaited in turn) and an empty chain.
 * - EntryPoint v0.7 and the SimpleAccountFactory v0.7 go through the deterministic CREATE2 deployer with their real salts
 *   and land at their canonical addresses exactly as on every chain (checked).
 * - Everything else was deployed on Base by keys or factories we do not have, so its constructor is run *at* the Base
 *   address (`constructAt`): immutables that embed the contract's own address or the chain id (NoDelegateCall,
 *   EIP-712 domains) and the storage the constructor writes are those of a contract deployed there.
 * - The v3 WETH/USDC 0.05% pool is created by the v3 factory and so lands at its real CREATE2 address (checked).
 */
export async function deployFixtures(options: DeployFixturesOptions): Promise<ChainAddresses> {
  const { rpcUrl, chainId, deployer } = options
  const logger = (options.logger ?? silentLogger).child({ component: 'devnet-deploy', chainId })
  const chain = defineChain({
    id: chainId,
    name: `devnet-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 })
  const walletClient = createWalletClient({ chain, account: deployer, transport: http(rpcUrl) })

  const confirm = async (hash: Hash, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 })
    if (receipt.status !== 'success') {
      throw new PrebuyError('devnet_deploy_failed', `Devnet deployment step reverted: ${what}.`, {
        details: { txHash: hash, blockNumber: receipt.blockNumber.toString(), to: receipt.to, gasUsed: receipt.gasUsed.toString() },
      })
    }
    return receipt
  }
  const deploy = async (name: ArtifactName, args: readonly unknown[] = []): Promise<Address> => {
    const { abi, bytecode } = loadArtifact(name)
    const hash = await walletClient.deployContract({ abi, bytecode, args } as Parameters<typeof walletClient.deployContract>[0])
    const receipt = await confirm(hash, `deploy ${name}`)
    if (!receipt.contractAddress) throw new PrebuyError('devnet_deploy_failed', `Devnet deployment of ${name} created no contract.`)
    logger.debug({ name, address: receipt.contractAddress }, 'deployed')
    return receipt.contractAddress
  }
  const write = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[], value?: bigint): Promise<void> => {
    const call = { address, abi, functionName, args, value, account: deployer } as Parameters<typeof publicClient.estimateContractGas>[0]
    // A margin over the estimate: gas can depend on the block the transaction lands in. The v3 pool's mint writes an
    // oracle observation only when the block's timestamp moved since the pool's initialize; estimated in the same
    // second and mined in the next, an exact estimate ran out of gas ("step reverted: mint", now and then).
    const gas = ((await publicClient.estimateContractGas(call)) * 3n) / 2n
    const hash = await walletClient.writeContract({ ...call, gas } as Parameters<typeof walletClient.writeContract>[0])
    await confirm(hash, `${functionName} on ${address}`)
  }
  const codeAt = async (address: Address): Promise<Hex> => (await publicClient.getCode({ address })) ?? '0x'
  const sendCall = async (to: Address, data: Hex, what: string): Promise<Hash> => {
    const gas = ((await publicClient.estimateGas({ account: deployer, to, data })) * 3n) / 2n
    const hash = await walletClient.sendTransaction({ to, data, gas })
    await confirm(hash, what)
    return hash
  }
  /** Runs `name`'s constructor at its Base address (see constructAt). */
  const place = async (target: Address, name: ArtifactName, args: readonly unknown[] = []): Promise<Address> => {
    const { abi, bytecode, deployedBytecode } = loadArtifact(name)
    const creationCode = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0])
    await constructAt({ rpcUrl, from: deployer.address, send: sendCall }, target, creationCode, (deployedBytecode.length - 2) / 2)
    logger.debug({ name, address: target }, 'placed at its Base address')
    return target
  }
  const base = BASE_DEFAULT_ADDRESSES

  // WETH at the OP-stack predeploy sorts below USDC, so it is token0 of the v3 pool, as on Base.
  const weth = await place(base.weth, 'WETH9')
  const stablecoin = await place(base.stablecoin, 'TestStablecoin', [deployer.address])
  await place(MULTICALL3_ADDRESS, 'Multicall3')
  await place(PERMIT2_ADDRESS, 'Permit2')
  await checkPermit2Domain(publicClient, chainId)

  await ensureCreate2Deployer(rpcUrl, codeAt)
  const entryPoint = await deployThroughCreate2(codeAt, sendCall, 'EntryPoint', ENTRY_POINT_V07_SALT, loadArtifact('EntryPoint').bytecode)
  const accountFactory = await deployThroughCreate2(
    codeAt,
    sendCall,
    'SimpleAccountFactory',
    ACCOUNT_FACTORY_SALT,
    encodeDeployData({ abi: loadArtifact('SimpleAccountFactory').abi, bytecode: loadArtifact('SimpleAccountFactory').bytecode, args: [entryPoint] }),
  )
  expectAddress(entryPoint, ENTRY_POINT_V07_ADDRESS, 'EntryPoint v0.7')
  expectAddress(accountFactory, base.accountFactory, 'SimpleAccountFactory v0.7')
  // Kernel v3.1 wallets (wallet.accountKind 'kernel'): implementation, factories and ECDSA validator at their Base addresses.
  await placeKernel({ rpcUrl, from: deployer.address, send: sendCall })

  const poolManager = await place(base.poolManager, 'PoolManager', [deployer.address])
  const stateView = await place(base.stateView, 'StateView', [poolManager])
  const v4Quoter = await place(base.v4Quoter, 'V4Quoter', [poolManager])
  const positionManager = await place(base.positionManager, 'PositionManager', [poolManager, PERMIT2_ADDRESS, UNSUBSCRIBE_GAS_LIMIT, zeroAddress, weth])

  const v3Factory = await place(base.v3Factory, 'UniswapV3Factory')
  const factoryAbi = loadArtifact('UniswapV3Factory').abi
  await write(v3Factory, factoryAbi, 'createPool', [weth, stablecoin, V3_POOL_FEE])
  const ethUsdPool = (await publicClient.readContract({
    address: v3Factory,
    abi: factoryAbi,
    functionName: 'getPool',
    args: [weth, stablecoin, V3_POOL_FEE],
  })) as Address
  const poolInitCodeHash = keccak256(loadArtifact('UniswapV3Pool').bytecode)
  // The UniversalRouter derives pool addresses from this hash; a mismatch would make every v3 swap revert. It is the
  // canonical v3 pool init code hash, so the pool is at its real Base address.
  const [token0, token1] = BigInt(weth) < BigInt(stablecoin) ? [weth, stablecoin] : [stablecoin, weth]
  const expectedPool = getContractAddress({
    opcode: 'CREATE2',
    from: v3Factory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, V3_POOL_FEE])),
    bytecodeHash: poolInitCodeHash,
  })
  if (expectedPool.toLowerCase() !== ethUsdPool.toLowerCase()) {
    throw new PrebuyError('devnet_deploy_failed', 'The v3 pool init code hash does not match the deployed factory.')
  }
  expectAddress(ethUsdPool, base.ethUsdPool, 'the WETH/USDC 0.05% v3 pool')
  const [amount0, amount1] = token0 === weth ? [DEVNET_POOL_WETH, DEVNET_POOL_USDC] : [DEVNET_POOL_USDC, DEVNET_POOL_WETH]
  const sqrtPriceX96 = isqrt((amount1 << 192n) / amount0)
  await write(ethUsdPool, loadArtifact('UniswapV3Pool').abi, 'initialize', [sqrtPriceX96])
  // Room for the pool's oracle (issue 24: ETH/USD is checked against this pool's TWAP, src/chain/read-eth-usd.ts). A
  // new v3 pool keeps one observation; Base's WETH/USDC pool keeps far more. An observation is written per block with
  // a swap, and devnet swaps are sparse, so 200 (about 4M gas, under EIP-7825's cap) cover a test's minutes.
  await write(ethUsdPool, loadArtifact('UniswapV3Pool').abi, 'increaseObservationCardinalityNext', [DEVNET_ETH_USD_OBSERVATIONS])

  const seeder = await deploy('V3LiquiditySeeder')
  const erc20 = parseAbi(['function approve(address,uint256) returns (bool)'])
  // Full-range amounts slightly exceed sqrt(x*y)'s ideal, so fund 1% extra; the rest stays with the deployer.
  await write(stablecoin, loadArtifact('TestStablecoin').abi, 'mint', [deployer.address, (DEVNET_POOL_USDC * 101n) / 100n])
  await write(weth, loadArtifact('WETH9').abi, 'deposit', [], (DEVNET_POOL_WETH * 101n) / 100n)
  await write(stablecoin, erc20, 'approve', [seeder, maxUint256])
  await write(weth, erc20, 'approve', [seeder, maxUint256])
  await write(seeder, loadArtifact('V3LiquiditySeeder').abi, 'mint', [ethUsdPool, deployer.address, V3_MIN_TICK, V3_MAX_TICK, isqrt(amount0 * amount1)])

  const universalRouter = await place(base.universalRouter, 'UniversalRouter', [
    {
      permit2: PERMIT2_ADDRESS,
      weth9: weth,
      v2Factory: zeroAddress,
      v3Factory,
      pairInitCodeHash: zeroHash,
      poolInitCodeHash,
      v4PoolManager: poolManager,
      v3NFTPositionManager: zeroAddress,
      v4PositionManager: positionManager,
      spokePool: zeroAddress,
    },
  ])

  const addresses: ChainAddresses = checksumAll({
    stablecoin,
    weth,
    poolManager,
    stateView,
    v4Quoter,
    positionManager,
    universalRouter,
    permit2: PERMIT2_ADDRESS,
    entryPoint,
    accountFactory,
    multicall3: MULTICALL3_ADDRESS,
    v3Factory,
    ethUsdPool,
  })
  logger.info({ addresses }, 'devnet fixtures deployed')
  return addresses
}

const checksumAll = (addresses: ChainAddresses): ChainAddresses =>
  Object.fromEntries(Object.entries(addresses).map(([key, value]) => [key, getAddress(value)])) as unknown as ChainAddresses

const PERMIT2_ABI = parseAbi(['function DOMAIN_SEPARATOR() view returns (bytes32)'])

const expectAddress = (found: Address, expected: Address, what: string): void => {
  if (found.toLowerCase() !== expected.toLowerCase()) {
    throw new PrebuyError('devnet_deploy_failed', `The devnet's ${what} is at ${found}, not at its Base address ${expected}.`)
  }
}

/**
 * Permit2 caches its EIP-712 domain separator (name, chain id and its own address) at construction; constructed at the
 * canonical address, it must report the separator of that address and of this chain, or no signature would verify.
 */
async function checkPermit2Domain(publicClient: { readContract: (args: never) => Promise<unknown> }, chainId: number): Promise<void> {
  const expected = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')), keccak256(toHex('Permit2')), BigInt(chainId), PERMIT2_ADDRESS],
    ),
  )
  const placed = (await publicClient.readContract({ address: PERMIT2_ADDRESS, abi: PERMIT2_ABI, functionName: 'DOMAIN_SEPARATOR' } as never)) as Hex
  if (placed.toLowerCase() !== expected.toLowerCase()) {
    throw new PrebuyError('devnet_deploy_failed', 'Permit2 at the canonical address reports a wrong domain separator.')
  }
}

/**
 * Runtime code of Arachnid's deterministic deployer (input: 32-byte salt ++ init code), for an anvil started without
 * its default copy (anvil places it at genesis; github.com/Arachnid/deterministic-deployment-proxy).
 */
const CREATE2_DEPLOYER_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'

async function ensureCreate2Deployer(rpcUrl: string, codeAt: (address: Address) => Promise<Hex>): Promise<void> {
  if ((await codeAt(CREATE2_DEPLOYER_ADDRESS)) === '0x') await jsonRpc(rpcUrl, 'anvil_setCode', [CREATE2_DEPLOYER_ADDRESS, CREATE2_DEPLOYER_RUNTIME])
}

/** Deploys `initCode` through the deterministic CREATE2 deployer with `salt`, as it was deployed on every chain. */
async function deployThroughCreate2(
  codeAt: (address: Address) => Promise<Hex>,
  sendCall: (to: Address, data: Hex, what: string) => Promise<unknown>,
  name: string,
  salt: Hex,
  initCode: Hex,
): Promise<Address> {
  const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER_ADDRESS, salt, bytecode: initCode })
  await sendCall(CREATE2_DEPLOYER_ADDRESS, concat([salt, initCode]), `deploy ${name} through CREATE2`)
  if ((await codeAt(address)) === '0x') throw new PrebuyError('devnet_deploy_failed', `${name} was not created at its CREATE2 address.`)
  return getAddress(address)
}
