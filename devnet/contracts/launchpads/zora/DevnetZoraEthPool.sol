// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {LiquidityAmounts} from "@uniswap/v4-periphery/src/libraries/LiquidityAmounts.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";

/// @notice The devnet's ZORA market: a devnet ZORA token (18 decimals, 10B supply like the real one, created by the
/// constructor) and a plain v4 ETH/ZORA pool (0.3%, tick spacing 60, no hook) with full-range liquidity, created by
/// `open` (a separate call: the PoolManager calls back into a contract, which has no code while it is constructed).
/// On Base the operator configures the ZORA route pool instead (docs/launchpads.md); ZORA-paired Zora coins are
/// priced and bought through it.
contract DevnetZoraEthPool is IUnlockCallback {
    uint256 public constant ZORA_SUPPLY = 10_000_000_000 ether;
    uint24 public constant FEE = 3_000;
    int24 public constant TICK_SPACING = 60;

    IPoolManager public immutable poolManager;
    DevnetLaunchToken public immutable zora;

    error OnlyPoolManager();

    address private immutable opener;
    bool public opened;

    error AlreadyOpen();
    error OnlyOpener();

    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
        opener = msg.sender;
        zora = new DevnetLaunchToken("Zora", "ZORA", ZORA_SUPPLY, address(this));
    }

    /// @notice Initialises the pool at `sqrtPriceX96` (ZORA per ETH) and puts all the ETH sent into it, full range,
    /// with the ZORA that price asks for; the rest of the ZORA goes to `zoraHolder`. Once, by the deployer.
    function open(uint160 sqrtPriceX96, address zoraHolder) external payable {
        if (msg.sender != opener) revert OnlyOpener();
        if (opened) revert AlreadyOpen();
        opened = true;
        PoolKey memory key = poolKey();
        poolManager.initialize(key, sqrtPriceX96);
        int24 lower = TickMath.minUsableTick(TICK_SPACING);
        int24 upper = TickMath.maxUsableTick(TICK_SPACING);
        uint128 liquidity = LiquidityAmounts.getLiquidityForAmount0(sqrtPriceX96, TickMath.getSqrtPriceAtTick(upper), msg.value);
        poolManager.unlock(abi.encode(key, lower, upper, liquidity));
        zora.transfer(zoraHolder, zora.balanceOf(address(this)));
        if (address(this).balance > 0) payable(zoraHolder).transfer(address(this).balance);
    }

    /// @notice ETH/ZORA: native ETH (address(0)) is always currency0.
    function poolKey() public view returns (PoolKey memory) {
        return PoolKey({
            currency0: Currency.wrap(address(0)),
            currency1: Currency.wrap(address(zora)),
            fee: FEE,
            tickSpacing: TICK_SPACING,
            hooks: IHooks(address(0))
        });
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager();
        (PoolKey memory key, int24 lower, int24 upper, uint128 liquidity) = abi.decode(data, (PoolKey, int24, int24, uint128));
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({tickLower: lower, tickUpper: upper, liquidityDelta: int256(uint256(liquidity)), salt: bytes32(0)}),
            ""
        );
        if (delta.amount0() < 0) poolManager.settle{value: uint256(uint128(-delta.amount0()))}();
        if (delta.amount1() < 0) {
            poolManager.sync(key.currency1);
            zora.transfer(address(poolManager), uint256(uint128(-delta.amount1())));
            poolManager.settle();
        }
        return "";
    }

    receive() external payable {}
}
