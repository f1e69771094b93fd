// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {DevnetLaunchpadBase} from "../DevnetLaunchpadBase.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {DevnetClankerV5Hook} from "./DevnetClankerV5Hook.sol";

/// @notice Devnet stand-in for the Clanker v5 factory, placed at its Base address
/// 0x572e88D3cD7f23E4241EB6ceDD96667271bF09A0 (clanker-devco/DOCS references/core-contracts/v5.md). No v5 source or ABI
/// is published (../shared/facts/base-today.md): the entry point, its parameters and the absence of a launch event are
/// this devnet's; prebuy never calls or reads it (it detects v5 launches by the PoolManager's Initialize naming the v5
/// hook, the deployer being the transaction's sender). What it does is what the documentation says a v5 launch is
/// (general/token-deployments.md, "How a v5 token works"):
/// - "an ERC-20 token with a total supply of 1 billion tokens" (18 decimals), created by CREATE2 from the caller's salt;
/// - "the full supply goes into a Uniswap v4 pool paired with one of the chain's registered pair tokens": here native
///   ETH (address 0) or WETH; the pool has no LP fee (key fee 0) and the v5 hook (DevnetClankerV5Hook);
/// - "each trade pays a buy tax or a sell tax. The creator sets each rate between 1% and 10%": checked here;
/// - the optional sniper fee, on or off per launch.
/// Chosen (undocumented): the starting price, tick -184,200 as if the token were currency0 (1e-8 ETH per token, ~10 ETH
/// FDV, like Clanker v4's default start of ~10 ETH), tick spacing 200 (Clanker v4's), one single-sided range from the
/// start to the last usable tick.
contract DevnetClankerV5Factory is DevnetLaunchpadBase {
    /// @dev "a total supply of 1 billion tokens".
    uint256 public constant TOKEN_SUPPLY = 1_000_000_000 ether;
    /// @dev "each rate between 1% and 10%", pips.
    uint24 public constant MIN_TAX = 10_000;
    uint24 public constant MAX_TAX = 100_000;
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -184_200;

    DevnetClankerV5Hook public immutable hook;
    address public immutable weth;

    struct DeployParams {
        string name;
        string symbol;
        /// @dev address(0) (native ETH) or WETH: the devnet's registered pair tokens.
        address pairedToken;
        uint24 buyTax;
        uint24 sellTax;
        bool sniperFee;
        bytes32 salt;
    }

    error TaxOutOfRange();
    error PairNotRegistered(address pairedToken);

    constructor(IPoolManager poolManager_, address weth_, DevnetClankerV5Hook hook_) DevnetLaunchpadBase(poolManager_, weth_) {
        hook = hook_;
        weth = weth_;
    }

    function deployToken(DeployParams calldata p) external returns (address token) {
        if (p.buyTax < MIN_TAX || p.buyTax > MAX_TAX || p.sellTax < MIN_TAX || p.sellTax > MAX_TAX) revert TaxOutOfRange();
        if (p.pairedToken != address(0) && p.pairedToken != weth) revert PairNotRegistered(p.pairedToken);
        token = address(new DevnetLaunchToken{salt: p.salt}(p.name, p.symbol, TOKEN_SUPPLY, address(this)));
        PoolKey memory key = _poolKeyWith(token, p.pairedToken, 0, TICK_SPACING, IHooks(address(hook)));
        bool pairIsCurrency0 = Currency.unwrap(key.currency0) == p.pairedToken;
        hook.registerPool(key, p.buyTax, p.sellTax, p.sniperFee, pairIsCurrency0);
        _launchPool(key, token, TOKEN_SUPPLY, STARTING_TICK);
    }
}
