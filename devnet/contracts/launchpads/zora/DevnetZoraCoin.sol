// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {IDevnetZoraUpgradeableHook} from "./IDevnetZoraUpgradeableHook.sol";

/// @notice A devnet Zora coin: the launch token plus the two getters of the real coin that a coin paired with it is
/// routed through (ourzora/zora-protocol packages/coins/src/interfaces/ICoin.sol: `getPoolKey()`, `currency()`), set
/// once by the factory after its pool is initialised; its owner may move its liquidity to a new hook
/// (`migrateLiquidity`, BaseCoin.sol at 5f2aebad34f77990345b2a77f9a1170e39e7b1dc).
contract DevnetZoraCoin is DevnetLaunchToken {
    address public immutable factory;
    address public currency;
    PoolKey internal poolKey;
    /// @notice The coin's owner (the real coin is MultiOwnable with the deploy's `owners`; the devnet factory names its
    /// caller, the creator, once; a trend coin has none here, so it cannot migrate on devnet).
    address public owner;
    /// @notice When the coin was created (the real IHasCreationInfo.creationInfo: the hook's launch fee runs from it).
    uint256 public immutable creationTimestamp;

    error OnlyFactory();
    /// @notice MultiOwnable.sol's `onlyOwner` error.
    error OnlyOwner();

    /// @notice ICoin.sol `LiquidityMigrated`, emitted by the coin itself (BaseCoin.migrateLiquidity); the hashes are
    /// `keccak256(abi.encode(poolKey))` (CoinCommon.hashPoolKey), i.e. the v4 PoolIds.
    event LiquidityMigrated(PoolKey fromPoolKey, bytes32 fromPoolKeyHash, PoolKey toPoolKey, bytes32 toPoolKeyHash);

    constructor(string memory name_, string memory symbol_, uint256 supply, address recipient)
        DevnetLaunchToken(name_, symbol_, supply, recipient)
    {
        factory = msg.sender;
        creationTimestamp = block.timestamp;
    }

    function setPool(PoolKey calldata key, address currency_) external {
        if (msg.sender != factory) revert OnlyFactory();
        poolKey = key;
        currency = currency_;
    }

    function setOwner(address owner_) external {
        if (msg.sender != factory || owner != address(0)) revert OnlyFactory();
        owner = owner_;
    }

    function isOwner(address account) public view returns (bool) {
        return account != address(0) && account == owner;
    }

    function getPoolKey() external view returns (PoolKey memory) {
        return poolKey;
    }

    /// @notice IHasCreationInfo: never "deploying" after the constructor (the factory's liquidity is added unhooked
    /// from the fee here).
    function creationInfo() external view returns (uint256, bool) {
        return (creationTimestamp, false);
    }

    /// @notice As BaseCoin.migrateLiquidity: owners only; the current hook moves the liquidity to `newHook` (it checks
    /// the caller is the pool's coin and the upgrade path is registered) and returns the new key, which the coin
    /// announces and keeps.
    function migrateLiquidity(address newHook, bytes calldata additionalData) external returns (PoolKey memory newPoolKey) {
        if (!isOwner(msg.sender)) revert OnlyOwner();
        newPoolKey = IDevnetZoraUpgradeableHook(address(poolKey.hooks)).migrateLiquidity(newHook, poolKey, additionalData);
        emit LiquidityMigrated(poolKey, keccak256(abi.encode(poolKey)), newPoolKey, keccak256(abi.encode(newPoolKey)));
        poolKey = newPoolKey;
    }
}
