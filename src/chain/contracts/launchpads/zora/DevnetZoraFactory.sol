// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetZoraHook} from "./DevnetZoraHook.sol";

/// @notice Devnet Zora coin factory: 1B-supply coin paired with WETH (real creator coins pair with ZORA and content
/// coins with their creator coin), a dynamic-fee v4 pool with DevnetZoraHook, and the real CoinCreatedV4 event.
contract DevnetZoraFactory is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -207_400; // ~1e-9 WETH per coin: ~1 ETH FDV
    string public constant VERSION = "devnet-1";

    struct DeployParams {
        address payoutRecipient;
        address platformReferrer;
        string uri;
        string name;
        string symbol;
        // all three zero: use the factory defaults
        uint24 startFee;
        uint24 endFee;
        uint32 durationSeconds;
        // CREATE2 salt of the coin (Zora deploys coins deterministically too)
        bytes32 salt;
    }

    event CoinCreatedV4(
        address indexed caller,
        address indexed payoutRecipient,
        address indexed platformReferrer,
        address currency,
        string uri,
        string name,
        string symbol,
        address coin,
        PoolKey poolKey,
        bytes32 poolKeyHash,
        string version
    );

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetZoraHook hook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, weth, hook_, startFee, endFee, durationSeconds) {}

    function deploy(DeployParams calldata p) external returns (address coin) {
        PoolKey memory key;
        (coin, key) = _launchLinear(p.name, p.symbol, p.salt, p.startFee, p.endFee, p.durationSeconds, TICK_SPACING, STARTING_TICK);
        emit CoinCreatedV4(
            msg.sender,
            p.payoutRecipient,
            p.platformReferrer,
            pairedToken,
            p.uri,
            p.name,
            p.symbol,
            coin,
            key,
            PoolId.unwrap(key.toId()),
            VERSION
        );
    }
}
