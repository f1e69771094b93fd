// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "solmate/src/tokens/ERC20.sol";

/// @notice Devnet stand-in for Doppler's DopplerERC20V1 (whetstoneresearch/doppler src/tokens/DopplerERC20V1.sol; Base
/// factory 0x89c2...5292, 2026-04-30, deployments/8453.md) reduced to its balance limit: until `balanceLimitEnd` no
/// holder outside `isExcludedFromBalanceLimit` may hold more than `maxBalanceLimit` (a transfer that would make it
/// reverts `BalanceLimitExceeded(newBalance, limit)`); the first transfer at or after the end lifts the limit for good
/// (`BalanceLimitDisabled(true)`), as the real `_beforeTokenTransfer`. The supply's recipient (the Airlock) and the
/// token's owner are excluded, plus the list given at initialisation (the real one's "initializers, migrators, Uniswap
/// PoolManager"). Same public getters: isBalanceLimitActive, balanceLimitEnd, maxBalanceLimit, isExcludedFromBalanceLimit.
/// Simplified: a constructor mint plus a one-time `initializeBalanceLimit` by the recipient (the real one is a clone
/// initialised once by its factory); no vesting, votes, pool lock or controller.
contract DevnetDopplerERC20V1 is ERC20 {
    address public immutable recipient;
    bool public isBalanceLimitActive;
    uint48 public balanceLimitEnd;
    uint256 public maxBalanceLimit;
    mapping(address account => bool excluded) public isExcludedFromBalanceLimit;

    event BalanceLimitDisabled(bool expired);

    error Unauthorized();
    error InvalidBalanceLimit(uint256 limit);
    error InvalidBalanceLimitTimestamp(uint256 specified, uint256 current);
    error BalanceLimitExceeded(uint256 balance, uint256 limit);

    constructor(string memory name_, string memory symbol_, uint256 supply, address recipient_) ERC20(name_, symbol_, 18) {
        recipient = recipient_;
        _mint(recipient_, supply);
    }

    /// @notice The real `initialize`'s balance-limit part (same checks and exclusions).
    function initializeBalanceLimit(uint256 maxBalanceLimit_, uint48 balanceLimitEnd_, address owner_, address[] calldata excluded) external {
        if (msg.sender != recipient || isBalanceLimitActive) revert Unauthorized();
        if (maxBalanceLimit_ == 0 || maxBalanceLimit_ >= totalSupply) revert InvalidBalanceLimit(maxBalanceLimit_);
        if (balanceLimitEnd_ <= block.timestamp) revert InvalidBalanceLimitTimestamp(balanceLimitEnd_, block.timestamp);
        maxBalanceLimit = maxBalanceLimit_;
        balanceLimitEnd = balanceLimitEnd_;
        isBalanceLimitActive = true;
        isExcludedFromBalanceLimit[owner_] = true;
        isExcludedFromBalanceLimit[recipient] = true;
        for (uint256 i; i < excluded.length; ++i) {
            isExcludedFromBalanceLimit[excluded[i]] = true;
        }
    }

    function transfer(address to, uint256 amount) public override returns (bool) {
        _beforeTokenTransfer(msg.sender, to, amount);
        return super.transfer(to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        _beforeTokenTransfer(from, to, amount);
        return super.transferFrom(from, to, amount);
    }

    /// @dev The real _beforeTokenTransfer's balance-limit branch, step by step.
    function _beforeTokenTransfer(address from, address to, uint256 value) private {
        if (!isBalanceLimitActive) return;
        if (from == to || to == address(0) || to == address(this)) return;
        if (isExcludedFromBalanceLimit[to]) return;
        if (block.timestamp < balanceLimitEnd) {
            uint256 newBalance = balanceOf[to] + value;
            if (newBalance > maxBalanceLimit) revert BalanceLimitExceeded(newBalance, maxBalanceLimit);
        } else {
            isBalanceLimitActive = false;
            emit BalanceLimitDisabled(true);
        }
    }
}
