// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {IClanker} from "../../../../src/chain/contracts/launchpads/clanker/IClanker.sol";

// The four kinds of module the Clanker v4 factory gates, declared with the real functions (clanker-devco/v4-contracts
// src/interfaces/IClankerHook.sol, IClankerLpLocker.sol, IClankerExtension.sol, IClankerMevModule.sol): the factory's
// setHook/setLocker/setExtension/setMevModule check `supportsInterface` with these interfaces' ERC-165 ids, which are
// the XOR of the selectors declared here, so they equal the real ids only if the signatures are exactly the real ones.
// (IPoolManager.SwapParams of the real one is the same tuple as v4-core's newer top-level SwapParams.)

interface IClankerHook {
    function initializePool(
        address clanker,
        address pairedToken,
        int24 tickIfToken0IsClanker,
        int24 tickSpacing,
        address locker,
        address mevModule,
        bytes calldata poolData
    ) external returns (PoolKey memory);
    function initializePoolOpen(
        address clanker,
        address pairedToken,
        int24 tickIfToken0IsClanker,
        int24 tickSpacing,
        bytes calldata poolData
    ) external returns (PoolKey memory);
    function initializeMevModule(PoolKey calldata poolKey, bytes calldata mevModuleData) external;
    function mevModuleEnabled(PoolId poolId) external view returns (bool);
    function poolCreationTimestamp(PoolId poolId) external view returns (uint256);
    function MAX_MEV_MODULE_DELAY() external view returns (uint256);
    function supportsInterface(bytes4 interfaceId) external pure returns (bool);
}

interface IClankerLpLocker {
    struct TokenRewardInfo {
        address token;
        PoolKey poolKey;
        uint256 positionId;
        uint256 numPositions;
        uint16[] rewardBps;
        address[] rewardAdmins;
        address[] rewardRecipients;
    }

    function collectRewards(address token) external;
    function collectRewardsWithoutUnlock(address token) external;
    function placeLiquidity(
        IClanker.LockerConfig memory lockerConfig,
        IClanker.PoolConfig memory poolConfig,
        PoolKey memory poolKey,
        uint256 poolSupply,
        address token
    ) external returns (uint256 tokenId);
    function tokenRewards(address token) external view returns (TokenRewardInfo memory);
    function supportsInterface(bytes4 interfaceId) external view returns (bool);
}

/// @dev The real one inherits IERC165, whose function is not part of this interface's id.
interface IClankerExtension {
    error InvalidMsgValue();

    function receiveTokens(
        IClanker.DeploymentConfig calldata deploymentConfig,
        PoolKey memory poolKey,
        address token,
        uint256 extensionSupply,
        uint256 extensionIndex
    ) external payable;
}

interface IClankerMevModule {
    function initialize(PoolKey calldata poolKey, bytes calldata mevModuleInitData) external;
    function beforeSwap(PoolKey calldata poolKey, SwapParams calldata swapParams, bool clankerIsToken0, bytes calldata mevModuleSwapData)
        external
        returns (bool disableMevModule);
    function supportsInterface(bytes4 interfaceId) external pure returns (bool);
}

interface IERC165Like {
    function supportsInterface(bytes4 interfaceId) external view returns (bool);
}
