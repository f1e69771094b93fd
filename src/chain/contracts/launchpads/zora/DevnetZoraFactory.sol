// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetZoraHook} from "./DevnetZoraHook.sol";

/// @notice Devnet Zora coin factory: a 1B-supply content coin paired with native ETH (`currency = address(0)`, as the
/// ETH-backed coins on Base: ourzora/zora-protocol packages/coins), a dynamic-fee v4 pool with DevnetZoraHook, the
/// pool initialised before the real CoinCreatedV4 event (caller = msg.sender, poolKeyHash = the PoolId).
/// Simplified: no ZORA or creator-coin pairs, no initial-supply purchase after the event, no reward split; the launch
/// fee is the hook's fixed schedule (99% -> 1% over 10 s, libs/CoinConstants.sol), as on Base.
contract DevnetZoraFactory is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -207_400; // ~1e-9 ETH per coin: ~1 ETH FDV
    string public constant VERSION = "devnet-1";

    struct DeployParams {
        address payoutRecipient;
        address platformReferrer;
        string uri;
        string name;
        string symbol;
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
        DevnetZoraHook hook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, address(0), hook_, startFee, endFee, durationSeconds) {}

    function deploy(DeployParams calldata p) external returns (address coin) {
        PoolKey memory key;
        // Zero fees: the factory's schedule, Zora's fixed launch fee (no caller chooses it).
        (coin, key) = _launchLinear(p.name, p.symbol, p.salt, 0, 0, 0, TICK_SPACING, STARTING_TICK);
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
