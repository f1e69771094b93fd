// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";

/// @notice The part of the Clanker v4 factory a dev-buy launch calls: `deployToken(DeploymentConfig)`. The structs are
///         laid out exactly as the real ones (clanker-devco/v4-contracts `src/interfaces/IClanker.sol`), so the same
///         call works against the factory on Base and the devnet imitation of it.
interface IClankerDeployToken {
    struct TokenConfig {
        address tokenAdmin;
        string name;
        string symbol;
        bytes32 salt;
        string image;
        string metadata;
        string context;
        uint256 originatingChainId;
    }

    struct PoolConfig {
        address hook;
        address pairedToken;
        int24 tickIfToken0IsClanker;
        int24 tickSpacing;
        bytes poolData;
    }

    struct LockerConfig {
        address locker;
        address[] rewardAdmins;
        address[] rewardRecipients;
        uint16[] rewardBps;
        int24[] tickLower;
        int24[] tickUpper;
        uint16[] positionBps;
        bytes lockerData;
    }

    struct ExtensionConfig {
        address extension;
        uint256 msgValue;
        uint16 extensionBps;
        bytes extensionData;
    }

    struct MevModuleConfig {
        address mevModule;
        bytes mevModuleData;
    }

    struct DeploymentConfig {
        TokenConfig tokenConfig;
        PoolConfig poolConfig;
        LockerConfig lockerConfig;
        MevModuleConfig mevModuleConfig;
        ExtensionConfig[] extensionConfigs;
    }

    function deployToken(DeploymentConfig memory deploymentConfig) external payable returns (address tokenAddress);
}

/// @notice The extension data of Clanker's ETH dev buy (clanker-devco/v4-contracts
///         `src/extensions/interfaces/IClankerUniv4EthDevBuy.sol`, `Univ4EthDevBuyExtensionData`).
interface IClankerEthDevBuy {
    struct Univ4EthDevBuyExtensionData {
        /// @dev Only for a paired token other than WETH (ignored for WETH pairs).
        PoolKey pairedTokenPoolKey;
        uint128 pairedTokenAmountOutMinimum;
        address recipient;
    }
}
