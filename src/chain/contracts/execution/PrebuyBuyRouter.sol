// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

interface IPrebuyERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
}

interface IPrebuyWETH is IPrebuyERC20 {
    function withdraw(uint256 amount) external;
}

interface IPrebuyV3Pool {
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// @title PrebuyBuyRouter
/// @notice The one contract a buyer's smart account calls to execute a pre-launch buy order in a single call:
///         stablecoin -> WETH on the v3 WETH/stablecoin pool, then WETH (or ETH) through the `bridge` v4 pools to the
///         launch's paired asset (none for WETH/ETH pairs; ETH -> ZORA for a Zora coin paired with ZORA), then that
///         asset -> token on the launch's v4 pool, all v4 hops in one unlock; then the buyer's price limit is enforced
///         on the tokens actually received and the platform fee is split off.
/// @dev Why a helper instead of Universal Router commands: the amount received is only known on-chain, and the platform
///      fee must be an exact share of it; doing the swap, the minimum-out check and the split in one frame makes the fee
///      exact and the limit check apply to the gross amount (the fee is not part of the price the buyer accepted).
///      Permissionless: it only ever moves the caller's own funds and holds nothing between calls. Its one piece of
///      state makes a buy idempotent: an order id can be bought once per account, ever, so a UserOperation resubmitted
///      after a crash (or one that lingered in a mempool) can never buy twice; a reverted attempt leaves no mark.
contract PrebuyBuyRouter is IUnlockCallback {
    IPoolManager public immutable poolManager;

    /// @notice account => order id => bought
    mapping(address => mapping(bytes32 => bool)) public executed;

    uint256 private constant BPS = 10_000;
    uint256 private constant MAX_FEE_BPS = 1_000;

    struct BuyParams {
        bytes32 orderId;
        address stablecoin;
        address weth;
        address ethUsdPool;
        /// v4 pools from WETH or native ETH to the launch pool's paired asset, in swap order (empty: it pairs with them).
        PoolKey[] bridge;
        PoolKey poolKey;
        address token;
        uint256 amountIn;
        uint256 minTokensOut;
        address feeRecipient;
        uint256 feeBps;
    }

    event PrebuyBuy(
        address indexed buyer,
        bytes32 indexed orderId,
        address indexed token,
        uint256 amountIn,
        uint256 tokensReceived,
        uint256 fee,
        address feeRecipient
    );

    error TooLittleReceived(uint256 received, uint256 minimum);
    error AlreadyExecuted(bytes32 orderId);
    error UnexpectedCallback();
    error FeeTooHigh();
    error TokenNotInPool();
    error BrokenRoute();

    constructor(IPoolManager manager) {
        poolManager = manager;
    }

    /// @notice Spends `amountIn` of the caller's stablecoin (approved to this contract) on `token`; reverts unless at
    ///         least `minTokensOut` tokens come out of the pool; sends `feeBps` of them to `feeRecipient`, the rest and any
    ///         unspent WETH to the caller.
    function buy(BuyParams calldata p) external returns (uint256 received, uint256 fee) {
        if (p.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        if (executed[msg.sender][p.orderId]) revert AlreadyExecuted(p.orderId);
        executed[msg.sender][p.orderId] = true;
        address pairedAsset = _pairedAsset(p.poolKey, p.token);
        // The first v4 input: WETH or native ETH, whichever the first pool holds (native ETH is address(0), currency0).
        address firstAsset = p.bridge.length == 0 ? pairedAsset : _ethSide(p.bridge[0], p.weth);
        PoolKey[] memory hops = new PoolKey[](p.bridge.length + 1);
        for (uint256 i = 0; i < p.bridge.length; i++) {
            hops[i] = p.bridge[i];
        }
        hops[p.bridge.length] = p.poolKey;
        IPrebuyERC20(p.stablecoin).transferFrom(msg.sender, address(this), p.amountIn);

        uint256 wethOut = _swapV3(p.ethUsdPool, p.stablecoin, p.weth, p.amountIn);
        if (firstAsset == address(0)) IPrebuyWETH(p.weth).withdraw(wethOut);

        uint256 before = IPrebuyERC20(p.token).balanceOf(address(this));
        poolManager.unlock(abi.encode(hops, firstAsset, p.token, wethOut));
        received = IPrebuyERC20(p.token).balanceOf(address(this)) - before;
        if (received < p.minTokensOut) revert TooLittleReceived(received, p.minTokensOut);

        fee = received * p.feeBps / BPS;
        if (fee > 0) IPrebuyERC20(p.token).transfer(p.feeRecipient, fee);
        IPrebuyERC20(p.token).transfer(msg.sender, received - fee);
        _refund(p.weth, firstAsset);
        emit PrebuyBuy(msg.sender, p.orderId, p.token, p.amountIn, received, fee, p.feeRecipient);
    }

    function _pairedAsset(PoolKey calldata key, address token) private pure returns (address) {
        address c0 = Currency.unwrap(key.currency0);
        address c1 = Currency.unwrap(key.currency1);
        if (c0 == token) return c1;
        if (c1 == token) return c0;
        revert TokenNotInPool();
    }

    function _ethSide(PoolKey calldata key, address weth) private pure returns (address) {
        address c0 = Currency.unwrap(key.currency0);
        if (c0 == address(0)) return address(0);
        if (c0 == weth || Currency.unwrap(key.currency1) == weth) return weth;
        revert BrokenRoute();
    }

    // Which pool may call back is kept in transient storage for the one swap in flight.
    function _swapV3(address pool, address tokenIn, address tokenOut, uint256 amountIn) private returns (uint256) {
        bool zeroForOne = tokenIn < tokenOut;
        assembly ("memory-safe") {
            tstore(0, pool)
        }
        (int256 amount0, int256 amount1) = IPrebuyV3Pool(pool).swap(
            address(this),
            zeroForOne,
            int256(amountIn),
            zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1,
            abi.encode(tokenIn)
        );
        assembly ("memory-safe") {
            tstore(0, 0)
        }
        return uint256(-(zeroForOne ? amount1 : amount0));
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        address expected;
        assembly ("memory-safe") {
            expected := tload(0)
        }
        if (msg.sender != expected || expected == address(0)) revert UnexpectedCallback();
        address tokenIn = abi.decode(data, (address));
        uint256 owed = amount0Delta > 0 ? uint256(amount0Delta) : uint256(amount1Delta);
        IPrebuyERC20(tokenIn).transfer(msg.sender, owed);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert UnexpectedCallback();
        (PoolKey[] memory hops, address firstAsset, address token, uint256 amountIn) =
            abi.decode(data, (PoolKey[], address, address, uint256));
        // Exact input through every hop: each hop's output is the next one's input, so the intermediate assets' deltas
        // net to zero inside this unlock; only the first input is paid and the token taken.
        address assetIn = firstAsset;
        uint256 amount = amountIn;
        uint256 owed;
        for (uint256 i = 0; i < hops.length; i++) {
            PoolKey memory key = hops[i];
            address c0 = Currency.unwrap(key.currency0);
            address c1 = Currency.unwrap(key.currency1);
            if (assetIn != c0 && assetIn != c1) revert BrokenRoute();
            bool zeroForOne = c0 == assetIn;
            BalanceDelta delta = poolManager.swap(
                key,
                SwapParams({
                    zeroForOne: zeroForOne,
                    amountSpecified: -int256(amount),
                    sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
                }),
                ""
            );
            int128 inDelta = zeroForOne ? delta.amount0() : delta.amount1();
            int128 outDelta = zeroForOne ? delta.amount1() : delta.amount0();
            if (i == 0) owed = uint256(uint128(-inDelta));
            amount = uint256(uint128(outDelta));
            assetIn = zeroForOne ? c1 : c0;
        }
        if (assetIn != token) revert BrokenRoute();
        if (firstAsset == address(0)) {
            poolManager.settle{value: owed}();
        } else {
            poolManager.sync(Currency.wrap(firstAsset));
            IPrebuyERC20(firstAsset).transfer(address(poolManager), owed);
            poolManager.settle();
        }
        poolManager.take(Currency.wrap(token), address(this), amount);
        return "";
    }

    function _refund(address weth, address firstAsset) private {
        if (firstAsset == address(0) && address(this).balance > 0) {
            (bool ok,) = msg.sender.call{value: address(this).balance}("");
            require(ok, "refund failed");
        }
        uint256 left = IPrebuyERC20(weth).balanceOf(address(this));
        if (left > 0) IPrebuyERC20(weth).transfer(msg.sender, left);
    }

    receive() external payable {}
}
