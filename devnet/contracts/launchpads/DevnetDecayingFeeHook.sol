// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BaseHook} from "@uniswap/v4-periphery/src/utils/BaseHook.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";

/// @notice Shared plumbing of the devnet hooks: one admin who names, once, the launchpad allowed to register pools.
/// The hook is deployed first (its address is mined for the flag bits), so the launchpad cannot be a constructor argument.
abstract contract DevnetDecayingFeeHook is BaseHook {
    address public immutable admin;
    address public launchpad;

    error OnlyAdmin();
    error OnlyLaunchpad();
    error LaunchpadAlreadySet();
    error PoolNotRegistered();

    constructor(IPoolManager poolManager_, address admin_) BaseHook(poolManager_) {
        admin = admin_;
    }

    function setLaunchpad(address launchpad_) external {
        if (msg.sender != admin) revert OnlyAdmin();
        if (launchpad != address(0)) revert LaunchpadAlreadySet();
        launchpad = launchpad_;
    }

    modifier onlyLaunchpad() {
        if (msg.sender != launchpad) revert OnlyLaunchpad();
        _;
    }

    /// @dev Linear decay shared by Doppler and Zora; integer maths identical to src/pricing/fee-schedule.ts.
    function _linearFee(uint256 startFee, uint256 endFee, uint256 startTime, uint256 duration, uint256 nowTs)
        internal
        pure
        returns (uint24)
    {
        if (nowTs <= startTime) return uint24(startFee);
        uint256 elapsed = nowTs - startTime;
        if (elapsed >= duration) return uint24(endFee);
        return uint24(startFee - ((startFee - endFee) * elapsed) / duration);
    }
}
