import { concatHex, encodeAbiParameters, encodeFunctionData, getContractAddress, keccak256, numberToHex, type Address, type Hex } from 'viem'
import simpleAccountFactoryArtifact from '@account-abstraction/contracts/artifacts/SimpleAccountFactory.json' with { type: 'json' }

/**
 * `type(ERC1967Proxy).creationCode` exactly as SimpleAccountFactory v0.7 embeds it: the factory's runtime code carries
 * the proxy's init code (it deploys and predicts proxies from it). The package ships no ERC1967Proxy artifact, and
 * recompiling would change the bytes, so we cut it out of the factory's own deployed bytecode: it is the segment that
 * begins with the second `6080604052` and ends with the first CBOR metadata trailer. The devnet test checks the result
 * against `factory.getAddress` and against the deployed account.
 */
function proxyCreationCode(): Hex {
  const runtime = simpleAccountFactoryArtifact.deployedBytecode.slice(2)
  const start = runtime.indexOf('6080604052', 2)
  const trailer = /a264697066735822[0-9a-f]{68}64736f6c6343[0-9a-f]{6}0033/.exec(runtime.slice(start))
  if (start < 0 || !trailer) throw new Error('SimpleAccountFactory artifact has an unexpected layout')
  return `0x${runtime.slice(start, start + trailer.index + trailer[0].length)}`
}

const PROXY_CREATION_CODE = proxyCreationCode()

const initializeAbi = [
  { type: 'function', name: 'initialize', inputs: [{ name: 'anOwner', type: 'address' }], outputs: [], stateMutability: 'nonpayable' },
] as const

/** The factory's constructor deploys the account implementation as its first CREATE (contract nonces start at 1). */
export const simpleAccountImplementation = (factory: Address): Address => getContractAddress({ from: factory, nonce: 1n })

/**
 * Offline twin of `SimpleAccountFactory.getAddress(owner, salt)`: CREATE2(factory, salt, keccak(proxy init code ++
 * abi.encode(implementation, initialize(owner)))). No RPC, so a wallet address is known the moment a key is created,
 * and it is the same on every chain where the factory sits at the same address.
 */
export function simpleAccountAddress(factory: Address, owner: Address, salt = 0n): Address {
  const initData = encodeFunctionData({ abi: initializeAbi, functionName: 'initialize', args: [owner] })
  const constructorArgs = encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [simpleAccountImplementation(factory), initData])
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: numberToHex(salt, { size: 32 }),
    bytecodeHash: keccak256(concatHex([PROXY_CREATION_CODE, constructorArgs])),
  })
}
