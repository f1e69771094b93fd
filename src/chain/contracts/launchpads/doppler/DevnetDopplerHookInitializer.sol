// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";
import {DevnetRehypeDopplerHook} from "./DevnetRehypeDopplerHook.sol";

/// @notice Devnet stand-in for Doppler's DopplerHookInitializer with the rehype Doppler hook (whetstoneresearch/doppler
/// src/initializers/DopplerHookInitializer.sol): the pool's `hooks`. Its pool has the dynamic-fee flag and a stored LP
/// fee set once at initialisation (`updateDynamicLPFee`; the hook never overrides it per swap), and after every
/// exact-input swap it takes the rehype hook's fee from the OUTPUT (afterSwap with a returned delta), so a buyer keeps
/// (1 - lp)(1 - hookFee) of the tokens. Simplified: exact-output swaps pay no hook fee; the fee goes to the rehype hook
/// contract and stays there.
contract DevnetDopplerHookInitializer is DevnetDecayingFeeHook {
    DevnetRehypeDopplerHook public immutable rehype;

    mapping(PoolId => bool) public registered;

    constructor(IPoolManager poolManager_, address admin_, DevnetRehypeDopplerHook rehype_) DevnetDecayingFeeHook(poolManager_, admin_) {
        rehype = rehype_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.afterSwap = true;
        p.afterSwapReturnDelta = true;
    }

    /// @notice Sets the pool's LP fee once it is initialised (only the pool's hook may), as the real initializer does.
    function initializePool(PoolKey calldata key, uint24 lpFee) external onlyLaunchpad {
        registered[key.toId()] = true;
        poolManager.updateDynamicLPFee(key, lpFee);
    }

    function _afterSwap(address, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata)
        internal
        override
        returns (bytes4, int128)
    {
        PoolId poolId = key.toId();
        if (!registered[poolId]) revert PoolNotRegistered();
        int128 output = params.zeroForOne ? delta.amount1() : delta.amount0();
        if (params.amountSpecified >= 0 || output <= 0) return (this.afterSwap.selector, 0);
        uint256 fee = (uint256(uint128(output)) * rehype.swapFee(poolId)) / 1_000_000;
        if (fee == 0) return (this.afterSwap.selector, 0);
        Currency feeCurrency = params.zeroForOne ? key.currency1 : key.currency0;
        poolManager.take(feeCurrency, address(rehype), fee);
        return (this.afterSwap.selector, int128(uint128(fee)));
    }
}
