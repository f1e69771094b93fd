// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

interface IDevnetDevBuyWETH {
    function deposit() external payable;
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IDevnetDevBuyERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @notice Devnet stand-in for Clanker's DevBuy extension (clanker-devco/v4-contracts
/// src/extensions/ClankerUniv4EthDevBuy.sol, on Base 0x1331f0788F9c08C8F38D52c7a1152250A9dE00be): the factory calls it
/// with ETH inside the deployment, after the liquidity is placed and before the MEV module starts; it wraps the ETH,
/// buys the token in the launch pool (a PoolManager Swap log before TokenCreated, paying the hook's normal LP and
/// protocol fee, not the sniper fee), sends the tokens to the recipient and emits the real EthDevBuy event; the
/// factory lists it in TokenCreated's `extensions`.
/// Simplified: it swaps through the PoolManager directly instead of the Universal Router, one recipient per launch,
/// WETH-paired pools only.
contract DevnetClankerDevBuy is IUnlockCallback {
    IPoolManager public immutable poolManager;
    address public immutable weth;
    address public immutable factory;

    event EthDevBuy(address indexed token, address indexed user, uint256 ethAmount, uint256 tokenAmount);

    error Unauthorized();
    error InvalidMsgValue();

    constructor(IPoolManager poolManager_, address weth_) {
        poolManager = poolManager_;
        weth = weth_;
        factory = msg.sender;
    }

    function receiveTokens(PoolKey calldata key, address token, address recipient) external payable returns (uint256 tokenAmount) {
        if (msg.sender != factory) revert Unauthorized();
        if (msg.value == 0) revert InvalidMsgValue();
        IDevnetDevBuyWETH(weth).deposit{value: msg.value}();
        tokenAmount = abi.decode(poolManager.unlock(abi.encode(key, token, msg.value)), (uint256));
        IDevnetDevBuyERC20(token).transfer(recipient, tokenAmount);
        emit EthDevBuy(token, recipient, msg.value, tokenAmount);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert Unauthorized();
        (PoolKey memory key, address token, uint256 amountIn) = abi.decode(data, (PoolKey, address, uint256));
        bool zeroForOne = Currency.unwrap(key.currency0) == weth;
        BalanceDelta delta = poolManager.swap(
            key,
            SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: -int256(amountIn),
                sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        int128 inDelta = zeroForOne ? delta.amount0() : delta.amount1();
        int128 outDelta = zeroForOne ? delta.amount1() : delta.amount0();
        poolManager.sync(Currency.wrap(weth));
        IDevnetDevBuyWETH(weth).transfer(address(poolManager), uint256(uint128(-inDelta)));
        poolManager.settle();
        uint256 out = uint256(uint128(outDelta));
        poolManager.take(Currency.wrap(token), address(this), out);
        return abi.encode(out);
    }
}
