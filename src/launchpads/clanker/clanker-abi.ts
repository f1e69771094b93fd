import { parseAbi } from 'viem'

export const CLANKER_TOKEN_CREATED = parseAbi([
  'event TokenCreated(address msgSender, address indexed tokenAddress, address indexed tokenAdmin, string tokenImage, string tokenName, string tokenSymbol, string tokenMetadata, string tokenContext, int24 startingTick, address poolHook, bytes32 poolId, address pairedToken, address locker, address mevModule, uint256 extensionsSupply, address[] extensions)',
])[0]

export const CLANKER_FEE_ABI = parseAbi([
  'event FeeConfigSet(bytes32 poolId, uint24 startingFee, uint24 endingFee, uint256 secondsToDecay)',
  'function feeConfig(bytes32 poolId) view returns (uint24 startingFee, uint24 endingFee, uint256 secondsToDecay)',
  'function pairedFee(bytes32 poolId) view returns (uint24)',
])
