// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {IClanker} from "../../../../src/chain/contracts/launchpads/clanker/IClanker.sol";
import {IClankerExtension} from "./ClankerModuleInterfaces.sol";

interface IDevnetDevBuyWETH {
    function deposit() external payable;
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IDevnetDevBuyERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @notice Devnet stand-in for Clanker's DevBuy extension (clanker-devco/v4-contracts
/// src/extensions/ClankerUniv4EthDevBuy.sol, on Base 0x1331f0788F9c08C8F38D52c7a1152250A9dE00be), for WETH-paired
/// pools: the factory calls the real `receiveTokens(deploymentConfig, poolKey, token, extensionSupply, extensionIndex)`
/// with the extension's `msgValue` inside the deployment, after the liquidity is placed and before the MEV module
/// starts. As the real one it refuses a msg.value that is not the config's or is zero (InvalidMsgValue) and any supply
/// share (InvalidEthDevBuyPercentage), decodes the extension data as Univ4EthDevBuyExtensionData{pairedTokenPoolKey,
/// pairedTokenAmountOutMinimum, recipient}, wraps the ETH, buys the token in the launch pool with empty hook data (a
/// PoolManager Swap log before TokenCreated, paying the hook's LP and protocol fee, not the sniper fee), sends the
/// tokens to `recipient` and emits the real EthDevBuy event. The real buy's minimum out is 1 token (its
/// `pairedTokenAmountOutMinimum` only bounds the WETH -> paired hop of a non-WETH pair); a buy that gets 0 reverts as
/// the V4Router's V4TooLittleReceived.
/// Simplified: it swaps through the PoolManager directly instead of the Universal Router and Permit2 (same pool
/// state); a non-WETH paired token (the real one first swaps WETH into it through `pairedTokenPoolKey`) reverts
/// PairedTokenNotWethOnDevnet.
contract DevnetClankerDevBuy is IUnlockCallback {
    /// @dev IClankerUniv4EthDevBuy.Univ4EthDevBuyExtensionData.
    struct Univ4EthDevBuyExtensionData {
        PoolKey pairedTokenPoolKey;
        uint128 pairedTokenAmountOutMinimum;
        address recipient;
    }

    IPoolManager public immutable poolManager;
    address public immutable weth;
    address public immutable factory;

    event EthDevBuy(address indexed token, address indexed user, uint256 ethAmount, uint256 tokenAmount);

    error Unauthorized();
    error InvalidMsgValue();
    error InvalidEthDevBuyPercentage();
    error V4TooLittleReceived(uint256 minAmountOutReceived, uint256 amountReceived);
    /// @notice Devnet only: the real extension would first buy the paired token with WETH.
    error PairedTokenNotWethOnDevnet();

    constructor(address factory_, IPoolManager poolManager_, address weth_) {
        factory = factory_;
        poolManager = poolManager_;
        weth = weth_;
    }

    /// @notice The real factory's setExtension accepts an extension only if it reports the IClankerExtension interface.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IClankerExtension).interfaceId;
    }

    function receiveTokens(
        IClanker.DeploymentConfig calldata deploymentConfig,
        PoolKey memory poolKey,
        address token,
        uint256 extensionSupply,
        uint256 extensionIndex
    ) external payable {
        if (msg.sender != factory) revert Unauthorized();
        IClanker.ExtensionConfig calldata config = deploymentConfig.extensionConfigs[extensionIndex];
        if (config.msgValue != msg.value || config.msgValue == 0) revert InvalidMsgValue();
        if (config.extensionBps != 0 || extensionSupply != 0) revert InvalidEthDevBuyPercentage();
        Univ4EthDevBuyExtensionData memory data = abi.decode(config.extensionData, (Univ4EthDevBuyExtensionData));
        if (deploymentConfig.poolConfig.pairedToken != weth) revert PairedTokenNotWethOnDevnet();

        IDevnetDevBuyWETH(weth).deposit{value: msg.value}();
        uint256 tokenAmount = abi.decode(poolManager.unlock(abi.encode(poolKey, token, msg.value)), (uint256));
        if (tokenAmount < 1) revert V4TooLittleReceived(1, tokenAmount);
        IDevnetDevBuyERC20(token).transfer(data.recipient, tokenAmount);
        emit EthDevBuy(token, data.recipient, msg.value, tokenAmount);
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
