// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetLaunchpadBase} from "./DevnetLaunchpadBase.sol";
import {DevnetLaunchToken} from "./DevnetLaunchToken.sol";
import {DevnetLinearFeeHook} from "./DevnetLinearFeeHook.sol";

/// @notice What the devnet Doppler Airlock and Zora factory share: a 1B-supply token, a dynamic-fee v4 pool with a
/// linear-decay fee hook registered for it (the factory's default schedule unless the call gives one), and the whole
/// supply as liquidity. Each launchpad keeps its own entry point, parameters and event.
abstract contract DevnetLinearFeeLaunchpad is DevnetLaunchpadBase {
    uint256 public constant TOKEN_SUPPLY = 1_000_000_000 ether;

    DevnetLinearFeeHook public immutable hook;
    uint24 public immutable defaultStartFee;
    uint24 public immutable defaultEndFee;
    uint32 public immutable defaultDurationSeconds;

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetLinearFeeHook hook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLaunchpadBase(poolManager_, weth) {
        hook = hook_;
        defaultStartFee = startFee;
        defaultEndFee = endFee;
        defaultDurationSeconds = durationSeconds;
    }

    /// @dev The launched token (a Zora coin adds its getters).
    function _createToken(string calldata name, string calldata symbol, bytes32 salt) internal virtual returns (address) {
        return address(new DevnetLaunchToken{salt: salt}(name, symbol, TOKEN_SUPPLY, address(this)));
    }

    /// @dev All three fee fields zero: the defaults. `paired` is the asset the pool pairs the token with.
    function _launchLinear(
        address paired,
        string calldata name,
        string calldata symbol,
        bytes32 salt,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds,
        int24 tickSpacing,
        int24 startingTick
    ) internal returns (address token, PoolKey memory key) {
        token = _createToken(name, symbol, salt);
        key = _poolKeyWith(token, paired, LPFeeLibrary.DYNAMIC_FEE_FLAG, tickSpacing, IHooks(address(hook)));
        bool useDefaults = startFee == 0 && endFee == 0 && durationSeconds == 0;
        hook.registerPool(
            key.toId(),
            DevnetLinearFeeHook.LinearFee({
                startingTime: uint32(block.timestamp),
                startFee: useDefaults ? defaultStartFee : startFee,
                endFee: useDefaults ? defaultEndFee : endFee,
                durationSeconds: useDefaults ? defaultDurationSeconds : durationSeconds
            })
        );
        _launchPool(key, token, TOKEN_SUPPLY, startingTick);
    }
}
