import solc from 'solc'
import { BaseError, ContractFunctionRevertedError, createWalletClient, http, keccak256, toHex, type Abi, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import settlementArtifact from '../../../src/chain/contracts/artifacts/PrebuyOtcSettlement.json' with { type: 'json' }
import { chainFromConfig } from '../../../src/chain/clients.ts'
import { startWalletFixture, type WalletFixture } from '../../wallets/devnet-fixture.ts'

/**
 * PrebuyOtcSettlement against tokens a project (or a stranger) could bring (issue 19's re-audit): a token that takes a
 * fee on transfer cannot be deposited (the record would not be what is on chain), and a token whose transfer hook calls
 * back into the contract is refused by its reentrancy guard. The hostile token is compiled here with solc-js: it is a
 * test's adversary, not part of the product.
 */
const HOSTILE_TOKEN = `
pragma solidity ^0.8.26;
interface ISettlement {
    function deposit(bytes32, address, uint256, uint256, uint256, uint64, uint64, uint64) external returns (bytes32);
}
contract HostileToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;
    uint256 public immutable feeBps;
    address private reenter;
    constructor(uint256 supply, uint256 feeBps_) { balanceOf[msg.sender] = supply; totalSupply = supply; feeBps = feeBps_; }
    /// The next transferFrom first calls deposit on the settlement (as a token hook would).
    function reenterOnce(address settlement) external { reenter = settlement; }
    function approve(address spender, uint256 amount) external returns (bool) { allowance[msg.sender][spender] = amount; return true; }
    function transfer(address to, uint256 amount) external returns (bool) { _move(msg.sender, to, amount); return true; }
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        allowance[from][msg.sender] -= amount;
        if (reenter != address(0)) {
            address settlement = reenter;
            reenter = address(0);
            ISettlement(settlement).deposit(keccak256("inner"), address(this), 1, 1, 1, 0, 0, 0);
        }
        _move(from, to, amount);
        return true;
    }
    function _move(address from, address to, uint256 amount) private {
        uint256 fee = amount * feeBps / 10000;
        balanceOf[from] -= amount;
        balanceOf[to] += amount - fee;
        totalSupply -= fee;
    }
}`

const compileHostileToken = (): { abi: Abi; bytecode: Hex } => {
  const input = {
    language: 'Solidity',
    sources: { 'HostileToken.sol': { content: HOSTILE_TOKEN } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contract = output.contracts['HostileToken.sol']!.HostileToken!
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}

const settlement = settlementArtifact as unknown as { abi: Abi; bytecode: Hex }
const SUPPLY = 10n ** 27n

let f: WalletFixture
let hostile: { abi: Abi; bytecode: Hex }
beforeAll(async () => {
  f = await startWalletFixture()
  hostile = compileHostileToken()
})
afterAll(async () => {
  await f?.stop()
})

describe('PrebuyOtcSettlement and hostile tokens', () => {
  const project = () => f.devnet.accounts[4]!.account
  const wallet = () => createWalletClient({ chain: chainFromConfig(f.chains.base), account: project(), transport: http(f.chains.base.rpcUrl) })
  const deploy = async (abi: Abi, bytecode: Hex, args: unknown[]): Promise<Address> => {
    const hash = await wallet().deployContract({ abi, bytecode, args } as never)
    return (await f.clients.base.waitForTransactionReceipt({ hash })).contractAddress!
  }
  const send = async (address: Address, abi: Abi, functionName: string, args: unknown[]) => {
    const hash = await wallet().writeContract({ address, abi, functionName, args, gas: 5_000_000n } as never)
    return f.clients.base.waitForTransactionReceipt({ hash })
  }
  const revertOf = async (address: Address, functionName: string, args: unknown[]): Promise<string | undefined> => {
    try {
      await f.clients.base.simulateContract({ account: project().address, address, abi: settlement.abi, functionName, args, gas: 5_000_000n } as never)
      return undefined
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
      return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : String(error)
    }
  }
  const newSettlement = () =>
    deploy(settlement.abi, settlement.bytecode, [
      f.chains.base.addresses.entryPoint,
      f.chains.base.addresses.stablecoin,
      f.devnet.accounts[3]!.account.address,
      '0x00000000000000000000000000000000000fee03',
      '0x00000000000000000000000000000000000fee04',
    ])
  const depositArgs = (token: Address, amount: bigint) => [keccak256(toHex('prebuy-otc:hostile')), token, amount, 10n ** 12n, SUPPLY, 0n, 0n, 0n]
  const held = (token: Address, of: Address) => f.clients.base.readContract({ address: token, abi: hostile.abi, functionName: 'balanceOf', args: [of] })

  it('a token that takes a fee on transfer is refused at deposit (ShortDeposit): the record could not equal the chain', async () => {
    const contract = await newSettlement()
    const token = await deploy(hostile.abi, hostile.bytecode, [SUPPLY, 100n]) // 1% per transfer
    await send(token, hostile.abi, 'approve', [contract, 1_000n])
    expect(await revertOf(contract, 'deposit', depositArgs(token, 1_000n))).toBe('ShortDeposit')
    // The same token with no fee deposits.
    const plain = await deploy(hostile.abi, hostile.bytecode, [SUPPLY, 0n])
    await send(plain, hostile.abi, 'approve', [contract, 1_000n])
    expect((await send(contract, settlement.abi, 'deposit', depositArgs(plain, 1_000n))).status).toBe('success')
    expect(await held(plain, contract)).toBe(1_000n)
  })

  it('a token whose transfer calls back into deposit is refused by the reentrancy guard (Reentered): one transfer is never counted for two offers', async () => {
    const contract = await newSettlement()
    const token = await deploy(hostile.abi, hostile.bytecode, [SUPPLY, 0n])
    await send(token, hostile.abi, 'approve', [contract, 1_000n])
    await send(token, hostile.abi, 'reenterOnce', [contract])
    expect(await revertOf(contract, 'deposit', depositArgs(token, 1_000n))).toBe('Reentered')
    expect(await held(token, contract)).toBe(0n)
  })
})
