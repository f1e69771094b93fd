// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {IClankerMevModule} from "./ClankerModuleInterfaces.sol";

/// @notice Devnet copy of Clanker v4.0's ClankerMevBlockDelay (clanker-devco/v4-contracts
/// src/mev-modules/ClankerMevBlockDelay.sol at b004c2edda29fa282a16d5d1441a26484f70b37f; on Base at
/// 0xE143f9872A33c955F23cF442BB4B1EFB3A7402A2, README "v4.0"), point by point:
/// - `blockDelay`, a constructor argument (the issue reports 2 blocks on Base), and `poolUnlockTime(poolId)`, both public;
/// - `initialize` (hook only, from the launch transaction): poolUnlockTime = block.number + blockDelay; the init data is
///   ignored;
/// - `beforeSwap` (hook only): reverts PoolLocked() while block.number < poolUnlockTime, else returns true: the hook then
///   disables the module for good (mevModuleEnabled = false, MevModuleDisabled). It never sets a fee;
/// - the errors of the real IClankerMevModule (PoolLocked, OnlyHook) and its ERC-165 answer.
/// Nothing simplified: the real contract is this small.
contract DevnetClankerMevBlockDelay {
    mapping(PoolId => uint256) public poolUnlockTime;

    uint256 public blockDelay;

    error PoolLocked();
    error OnlyHook();

    constructor(uint256 _blockDelay) {
        blockDelay = _blockDelay;
    }

    modifier onlyHook(PoolKey calldata poolKey) {
        if (msg.sender != address(poolKey.hooks)) revert OnlyHook();
        _;
    }

    function initialize(PoolKey calldata poolKey, bytes calldata) external onlyHook(poolKey) {
        poolUnlockTime[poolKey.toId()] = block.number + blockDelay;
    }

    function beforeSwap(PoolKey calldata poolKey, SwapParams calldata, bool, bytes calldata)
        external
        view
        onlyHook(poolKey)
        returns (bool disableMevModule)
    {
        if (block.number < poolUnlockTime[poolKey.toId()]) revert PoolLocked();
        return true;
    }

    /// @notice The real factory's setMevModule accepts a module only if it reports the IClankerMevModule interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerMevModule).interfaceId;
    }
}
