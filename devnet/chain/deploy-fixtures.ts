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
import { isqrt } from '../../src/pricing/isqrt.ts'

/** The devnet ETH price the v3 WETH/USDC pool starts at. */
export const DEVNET_ETH_PRICE_USDC = 3_000n
/** Liquidity seeded into the v3 pool: deep enough that hundreds of test buys barely move the price. */
export const DEVNET_POOL_WETH = 2_000n * 10n ** 18n
export const DEVNET_POOL_USDC = (DEVNET_POOL_WETH * DEVNET_ETH_PRICE_USDC) / 10n ** 12n
export const V3_POOL_FEE = 500
/** Full range for tick spacing 10 (the 0.05% tier). */
const V3_MIN_TICK = -887_270
const V3_MAX_TICK = 887_270
/** PositionManager's gas cap for notifying subscribers on unsubscribe; v4-periphery's deploy script uses 300k. */
const UNSUBSCRIBE_GAS_LIMIT = 300_000n
/** Fixed so the factory (and so every smart-wallet address) is identical on both chains. */
export const ACCOUNT_FACTORY_SALT: Hex = keccak256(toHex('prebuy.devnet.SimpleAccountFactory.v0.7'))

export interface DeployFixturesOptions {
  rpcUrl: string
  chainId: number
  /** Funded anvil account that deploys and owns everything (and is the stablecoin's minter). */
  deployer: LocalAccount
  logger?: Logger
}

/**
 * Deploys every contract the service needs on a fresh anvil chain and returns their addresses. Needs automine (each
 * transaction is awaited in turn). Contracts whose address must be canonical are deployed normally and their runtime
 * code copied there with anvil_setCode; the smart-account factory goes through the CREATE2 deployer instead because
 * its account implementation is created in its constructor.
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
  /** Copies runtime code (and constructor-written storage) from a normal deployment to a canonical address. */
  const placeAt = async (target: Address, source: Address, code?: Hex, storageSlots = 0): Promise<void> => {
    await jsonRpc(rpcUrl, 'anvil_setCode', [target, code ?? (await codeAt(source))])
    for (let slot = 0; slot < storageSlots; slot++) {
      const value = await publicClient.getStorageAt({ address: source, slot: toHex(slot, { size: 32 }) })
      if (value && BigInt(value) !== 0n) await jsonRpc(rpcUrl, 'anvil_setStorageAt', [target, toHex(slot, { size: 32 }), value])
    }
  }

  // Tokens: deploy WETH at the lower of the next two addresses so it is token0 of the v3 pool, as on Base.
  const nonce = await publicClient.getTransactionCount({ address: deployer.address })
  const first = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
  const second = getContractAddress({ from: deployer.address, nonce: BigInt(nonce + 1) })
  let weth: Address
  let stablecoin: Address
  if (BigInt(first) < BigInt(second)) {
    weth = await deploy('WETH9')
    stablecoin = await deploy('TestStablecoin', [deployer.address])
  } else {
    stablecoin = await deploy('TestStablecoin', [deployer.address])
    weth = await deploy('WETH9')
  }

  const multicallImpl = await deploy('Multicall3')
  await placeAt(MULTICALL3_ADDRESS, multicallImpl)

  const readDomainSeparator = (address: Address): Promise<Hex> => publicClient.readContract({ address, abi: PERMIT2_ABI, functionName: 'DOMAIN_SEPARATOR' })
  await placePermit2(rpcUrl, chainId, await deploy('Permit2'), codeAt, readDomainSeparator)

  // EntryPoint v0.7's only immutable is its SenderCreator (deployed by its constructor, callable by anyone), so the
  // copied code stays valid; storage slots are copied for the ReentrancyGuard status its constructor sets.
  await placeAt(ENTRY_POINT_V07_ADDRESS, await deploy('EntryPoint'), undefined, 8)

  const sendCall = async (to: Address, data: Hex, what: string): Promise<void> => {
    await confirm(await walletClient.sendTransaction({ to, data }), what)
  }
  const accountFactory = await deployAccountFactory(rpcUrl, codeAt, sendCall)

  const poolManager = await deploy('PoolManager', [deployer.address])
  const stateView = await deploy('StateView', [poolManager])
  const v4Quoter = await deploy('V4Quoter', [poolManager])
  const positionManager = await deploy('PositionManager', [poolManager, PERMIT2_ADDRESS, UNSUBSCRIBE_GAS_LIMIT, zeroAddress, weth])

  const v3Factory = await deploy('UniswapV3Factory')
  const factoryAbi = loadArtifact('UniswapV3Factory').abi
  await write(v3Factory, factoryAbi, 'createPool', [weth, stablecoin, V3_POOL_FEE])
  const ethUsdPool = (await publicClient.readContract({
    address: v3Factory,
    abi: factoryAbi,
    functionName: 'getPool',
    args: [weth, stablecoin, V3_POOL_FEE],
  })) as Address
  const poolInitCodeHash = keccak256(loadArtifact('UniswapV3Pool').bytecode)
  // The UniversalRouter derives pool addresses from this hash; a mismatch would make every v3 swap revert.
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
  const [amount0, amount1] = token0 === weth ? [DEVNET_POOL_WETH, DEVNET_POOL_USDC] : [DEVNET_POOL_USDC, DEVNET_POOL_WETH]
  const sqrtPriceX96 = isqrt((amount1 << 192n) / amount0)
  await write(ethUsdPool, loadArtifact('UniswapV3Pool').abi, 'initialize', [sqrtPriceX96])

  const seeder = await deploy('V3LiquiditySeeder')
  const erc20 = parseAbi(['function approve(address,uint256) returns (bool)'])
  // Full-range amounts slightly exceed sqrt(x*y)'s ideal, so fund 1% extra; the rest stays with the deployer.
  await write(stablecoin, loadArtifact('TestStablecoin').abi, 'mint', [deployer.address, (DEVNET_POOL_USDC * 101n) / 100n])
  await write(weth, loadArtifact('WETH9').abi, 'deposit', [], (DEVNET_POOL_WETH * 101n) / 100n)
  await write(stablecoin, erc20, 'approve', [seeder, maxUint256])
  await write(weth, erc20, 'approve', [seeder, maxUint256])
  await write(seeder, loadArtifact('V3LiquiditySeeder').abi, 'mint', [ethUsdPool, deployer.address, V3_MIN_TICK, V3_MAX_TICK, isqrt(amount0 * amount1)])

  const universalRouter = await deploy('UniversalRouter', [
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
    entryPoint: ENTRY_POINT_V07_ADDRESS,
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

/**
 * Permit2 caches its EIP-712 domain separator (which includes its own address) in an immutable at construction. Copied
 * verbatim to the canonical address, signatures would be checked against the temporary address's domain, so the
 * cached value is patched in the runtime code to the canonical address's separator before placing it.
 */
async function placePermit2(
  rpcUrl: string,
  chainId: number,
  deployed: Address,
  codeAt: (address: Address) => Promise<Hex>,
  readDomainSeparator: (address: Address) => Promise<Hex>,
): Promise<void> {
  const separatorFor = (verifyingContract: Address): Hex =>
    keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [
          keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
          keccak256(toHex('Permit2')),
          BigInt(chainId),
          verifyingContract,
        ],
      ),
    )
  const cached = await readDomainSeparator(deployed)
  if (cached.toLowerCase() !== separatorFor(deployed).toLowerCase()) {
    throw new PrebuyError('devnet_deploy_failed', 'Permit2 domain separator layout is not the one expected.')
  }
  const code = await codeAt(deployed)
  const patched = code.split(cached.slice(2)).join(separatorFor(PERMIT2_ADDRESS).slice(2)) as Hex
  if (patched === code) throw new PrebuyError('devnet_deploy_failed', 'Permit2 domain separator not found in its runtime code.')
  await jsonRpc(rpcUrl, 'anvil_setCode', [PERMIT2_ADDRESS, patched])
  const placed = await readDomainSeparator(PERMIT2_ADDRESS)
  if (placed.toLowerCase() !== separatorFor(PERMIT2_ADDRESS).toLowerCase()) {
    throw new PrebuyError('devnet_deploy_failed', 'Permit2 at the canonical address reports a wrong domain separator.')
  }
}

/** Runtime code of Arachnid's deterministic deployer, for an anvil started without its default copy. */
const CREATE2_DEPLOYER_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'

async function deployAccountFactory(
  rpcUrl: string,
  codeAt: (address: Address) => Promise<Hex>,
  sendCall: (to: Address, data: Hex, what: string) => Promise<void>,
): Promise<Address> {
  if ((await codeAt(CREATE2_DEPLOYER_ADDRESS)) === '0x') await jsonRpc(rpcUrl, 'anvil_setCode', [CREATE2_DEPLOYER_ADDRESS, CREATE2_DEPLOYER_RUNTIME])
  const { abi, bytecode } = loadArtifact('SimpleAccountFactory')
  const initCode = encodeDeployData({ abi, bytecode, args: [ENTRY_POINT_V07_ADDRESS] })
  const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER_ADDRESS, salt: ACCOUNT_FACTORY_SALT, bytecode: initCode })
  // Already there when the chain kept its state but deployments.json was lost: CREATE2 would revert.
  if ((await codeAt(address)) !== '0x') return address
  await sendCall(CREATE2_DEPLOYER_ADDRESS, concat([ACCOUNT_FACTORY_SALT, initCode]), 'deploy SimpleAccountFactory through CREATE2')
  if ((await codeAt(address)) === '0x') throw new PrebuyError('devnet_deploy_failed', 'SimpleAccountFactory was not created at its CREATE2 address.')
  return address
}
