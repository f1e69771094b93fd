// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IUniswapV3PoolMint {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Adds liquidity to a Uniswap v3 pool on devnet. A v3 pool pulls tokens through a callback on the caller,
/// so an EOA cannot mint directly and we do not deploy the NonfungiblePositionManager just for seeding. The payer
/// approves this contract; the position belongs to `recipient`.
contract V3LiquiditySeeder {
    error UnexpectedCaller();

    address private activePool;

    function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        activePool = pool;
        (amount0, amount1) = IUniswapV3PoolMint(pool).mint(recipient, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
        activePool = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        // Only the pool this contract is minting on may pull the payer's tokens.
        if (msg.sender != activePool || activePool == address(0)) revert UnexpectedCaller();
        address payer = abi.decode(data, (address));
        IUniswapV3PoolMint pool = IUniswapV3PoolMint(msg.sender);
        if (amount0Owed > 0) IERC20TransferFrom(pool.token0()).transferFrom(payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) IERC20TransferFrom(pool.token1()).transferFrom(payer, msg.sender, amount1Owed);
    }
}
