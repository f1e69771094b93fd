// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetLaunchpadBase} from "../DevnetLaunchpadBase.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {DevnetZoraHook} from "./DevnetZoraHook.sol";
import {DevnetLinearFeeHook} from "../DevnetLinearFeeHook.sol";

/// @notice Devnet Zora coin factory: 1B-supply coin paired with WETH (real creator coins pair with ZORA and content
/// coins with their creator coin), a dynamic-fee v4 pool with DevnetZoraHook, and the real CoinCreatedV4 event.
contract DevnetZoraFactory is DevnetLaunchpadBase {
    uint256 public constant TOKEN_SUPPLY = 1_000_000_000 ether;
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -207_400; // ~1e-9 WETH per coin: ~1 ETH FDV
    string public constant VERSION = "devnet-1";

    DevnetZoraHook public immutable hook;
    uint24 public immutable defaultStartFee;
    uint24 public immutable defaultEndFee;
    uint32 public immutable defaultDurationSeconds;

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
    ) DevnetLaunchpadBase(poolManager_, weth) {
        hook = hook_;
        defaultStartFee = startFee;
        defaultEndFee = endFee;
        defaultDurationSeconds = durationSeconds;
    }

    function deploy(DeployParams calldata p) external returns (address coin) {
        coin = address(new DevnetLaunchToken{salt: p.salt}(p.name, p.symbol, TOKEN_SUPPLY, address(this)));
        PoolKey memory key = _poolKeyFor(coin, LPFeeLibrary.DYNAMIC_FEE_FLAG, TICK_SPACING, IHooks(address(hook)));
        bool useDefaults = p.startFee == 0 && p.endFee == 0 && p.durationSeconds == 0;
        hook.registerPool(
            key.toId(),
            DevnetLinearFeeHook.LinearFee({
                startingTime: uint32(block.timestamp),
                startFee: useDefaults ? defaultStartFee : p.startFee,
                endFee: useDefaults ? defaultEndFee : p.endFee,
                durationSeconds: useDefaults ? defaultDurationSeconds : p.durationSeconds
            })
        );
        _launchPool(key, coin, TOKEN_SUPPLY, STARTING_TICK);
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
