// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {IClanker} from "../launchpads/clanker/IClanker.sol";
import {IClankerEthDevBuy} from "./IClankerEthDevBuy.sol";

interface IDevBuyERC20 {
    function approve(address spender, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
}

interface IDevBuyWETH is IDevBuyERC20 {
    function withdraw(uint256 amount) external;
}

/// @dev PrebuyVesting (same directory): positions in each buyer's name, released only by the buyer.
interface IDevBuyVesting {
    function lock(address token, address[] calldata beneficiaries, uint256[] calldata amounts, uint64 lockupEnd, uint64 vestingSeconds)
        external
        returns (uint256 firstId);
}

interface IDevBuyEntryPoint {
    function handleOps(PackedUserOperation[] calldata ops, address payable beneficiary) external;
}

interface IDevBuyV3Pool {
    function token0() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// @title PrebuyDevBuyCoordinator
/// @notice A dev-buy launch in one transaction: the buyers' smart wallets pay in their stablecoin, the total is swapped
///         to ETH, the token is deployed through the Clanker factory with its ETH dev-buy extension buying for this
///         contract in block zero, and the tokens bought (less the 3% platform fee) are split pro rata to the wallets.
///         Any failure reverts all of it: nothing moves.
/// @dev Paying in works as in PrebuyOtcSettlement: `launch` calls the EntryPoint's `handleOps` itself with one operation
///      per wallet (`approve(this, amount)` + `contribute(launchId, amount)`), then checks every planned contribution
///      arrived exactly and nothing else did. The dev buy pays the pool's LP fee, not the sniper fee: the factory runs
///      extensions before it initialises the MEV module (clanker-devco/v4-contracts `src/Clanker.sol`, `deployToken`).
///      The split is `src/domain/launch-methods/dev-buy-allocation.ts` (`allocateDevBuy`): the fee is floor(bought * 3%)
///      on the whole buy, each wallet gets floor(net * contribution / total), the dust goes to the largest contributor
///      (the first of equal ones), so the parts add up to exactly what was bought.
///      Lock and vesting (the project's terms, relative to the launch block's time): each buyer's share goes into a
///      PrebuyVesting position in its wallet's name in the same transaction (one `lock` for all, positions in
///      contribution order), instead of to the wallet.
///      Idempotent: a launch id deploys once (`launchedToken`), so a resubmission after a crash moves nothing.
contract PrebuyDevBuyCoordinator {
    struct Contribution {
        address wallet;
        uint256 amount;
    }

    struct LaunchLimits {
        /// @notice The least ETH the stablecoin must buy (the planned quote less the slippage the service accepts).
        uint256 minEth;
        /// @notice The least tokens the dev buy must bring, before the fee: the plan's price bound for every buyer.
        uint256 minTokens;
        /// @notice Which extension config is the ETH dev buy: its msgValue is set to the ETH the swap brought.
        uint256 devBuyIndex;
        /// @notice Cliff after the launch block's time, then linear vesting (both 0: the shares go to the wallets).
        uint64 lockSeconds;
        uint64 vestingSeconds;
    }

    uint256 public constant FEE_BPS = 300;
    uint160 private constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;

    IDevBuyEntryPoint public immutable entryPoint;
    IDevBuyERC20 public immutable stablecoin;
    IDevBuyWETH public immutable weth;
    /// @notice The WETH/stablecoin v3 pool the stablecoin is swapped on.
    IDevBuyV3Pool public immutable ethUsdPool;
    IClanker public immutable factory;
    /// @notice Where locked shares are held in each buyer's name.
    IDevBuyVesting public immutable vesting;
    /// @notice The service: the only caller of `launch`.
    address public immutable operator;
    address public immutable feeRecipient;

    mapping(bytes32 launchId => address token) public launchedToken;

    /// @dev The launch collecting contributions (only during `launch`), what each wallet paid in, and the total.
    bytes32 private collecting;
    mapping(address wallet => uint256) private contributed;
    uint256 private collected;
    /// @dev Set only around the v3 swap: the one callback this contract pays.
    bool private swapping;

    event Contributed(bytes32 indexed launchId, address indexed wallet, uint256 amount);
    event BuyerAllocated(bytes32 indexed launchId, address indexed wallet, uint256 spend, uint256 tokens);
    event DevBuyLaunched(bytes32 indexed launchId, address indexed token, uint256 stableIn, uint256 ethIn, uint256 bought, uint256 fee);

    error OnlyOperator();
    error AlreadyLaunched(bytes32 launchId, address token);
    error NothingToLaunch();
    error NotCollecting();
    error Busy();
    error ContributionMismatch(address wallet, uint256 expected, uint256 received);
    error UnplannedContributions(uint256 collected, uint256 planned);
    error TooLittleEth(uint256 received, uint256 minimum);
    error TooFewTokens(uint256 bought, uint256 minimum);
    error InvalidDevBuyExtension();
    error UnexpectedCallback();
    error UnexpectedEth();
    error TransferFailed();
    /// @notice Not a failure: how `quoteStableToEth` answers (it always reverts, so nothing moves).
    error StableToEthQuote(uint256 ethOut);

    constructor(
        IDevBuyEntryPoint entryPoint_,
        IDevBuyERC20 stablecoin_,
        IDevBuyWETH weth_,
        IDevBuyV3Pool ethUsdPool_,
        IClanker factory_,
        IDevBuyVesting vesting_,
        address operator_,
        address feeRecipient_
    ) {
        entryPoint = entryPoint_;
        stablecoin = stablecoin_;
        weth = weth_;
        ethUsdPool = ethUsdPool_;
        factory = factory_;
        vesting = vesting_;
        operator = operator_;
        feeRecipient = feeRecipient_;
    }

    /// @notice Called by a buyer's wallet from its UserOperation inside `launch`: pays in `amount` of stablecoin.
    function contribute(bytes32 launchId, uint256 amount) external {
        if (collecting == bytes32(0) || collecting != launchId) revert NotCollecting();
        if (!stablecoin.transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        contributed[msg.sender] += amount;
        collected += amount;
        emit Contributed(launchId, msg.sender, amount);
    }

    /// @notice Collects the planned contributions, swaps them to ETH, deploys the token with the dev buy for this
    ///         contract and splits what it bought; reverts as a whole on any difference from the plan.
    function launch(
        bytes32 launchId,
        PackedUserOperation[] calldata ops,
        Contribution[] calldata contributions,
        LaunchLimits calldata limits,
        IClanker.DeploymentConfig calldata config
    ) external returns (address token) {
        if (msg.sender != operator) revert OnlyOperator();
        if (collecting != bytes32(0)) revert Busy();
        if (launchedToken[launchId] != address(0)) revert AlreadyLaunched(launchId, launchedToken[launchId]);
        if (contributions.length == 0) revert NothingToLaunch();

        uint256 stableIn = _collect(launchId, ops, contributions);
        uint256 ethIn = _swapStableToEth(stableIn);
        if (ethIn < limits.minEth) revert TooLittleEth(ethIn, limits.minEth);

        token = _deploy(config, limits.devBuyIndex, ethIn);
        launchedToken[launchId] = token;
        uint256 bought = IDevBuyERC20(token).balanceOf(address(this));
        if (bought < limits.minTokens) revert TooFewTokens(bought, limits.minTokens);

        uint256 fee = bought * FEE_BPS / 10_000;
        _allocate(launchId, IDevBuyERC20(token), contributions, stableIn, bought - fee, limits);
        if (fee > 0) _send(IDevBuyERC20(token), feeRecipient, fee);
        emit DevBuyLaunched(launchId, token, stableIn, ethIn, bought, fee);
    }

    /// @notice The ETH `stableIn` buys on the pool now, exactly as `launch` would swap it. Always reverts with
    ///         `StableToEthQuote(ethOut)` (call it with eth_call): the swap is undone before anything is paid.
    function quoteStableToEth(uint256 stableIn) external {
        // Unreachable past the swap: the callback reverts in quote mode.
        revert StableToEthQuote(_swapOnPool(stableIn, true));
    }

    /// @dev The v3 pool's callback: pays the stablecoin owed, or, quoting, reverts with what the swap would give.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        if (msg.sender != address(ethUsdPool) || !swapping) revert UnexpectedCallback();
        swapping = false;
        bool stableIsToken0 = ethUsdPool.token0() == address(stablecoin);
        if (abi.decode(data, (bool))) revert StableToEthQuote(uint256(-(stableIsToken0 ? amount1Delta : amount0Delta)));
        _send(stablecoin, msg.sender, uint256(stableIsToken0 ? amount0Delta : amount1Delta));
    }

    /// @dev Only WETH unwrapping sends ETH here; any other sender is refused. The factory refunds nothing: it takes
    ///      exactly the extensions' msgValue sum, which `_deploy` sets to the ETH the swap brought.
    receive() external payable {
        if (msg.sender != address(weth)) revert UnexpectedEth();
    }

    function _collect(bytes32 launchId, PackedUserOperation[] calldata ops, Contribution[] calldata contributions)
        private
        returns (uint256 planned)
    {
        collecting = launchId;
        entryPoint.handleOps(ops, payable(msg.sender));
        collecting = bytes32(0);
        for (uint256 i = 0; i < contributions.length; i++) {
            uint256 received = contributed[contributions[i].wallet];
            // Zeroed as it is checked: a wallet listed twice finds nothing the second time.
            contributed[contributions[i].wallet] = 0;
            if (received != contributions[i].amount || received == 0) {
                revert ContributionMismatch(contributions[i].wallet, contributions[i].amount, received);
            }
            planned += received;
        }
        if (collected != planned) revert UnplannedContributions(collected, planned);
        collected = 0;
    }

    function _swapStableToEth(uint256 stableIn) private returns (uint256 ethOut) {
        ethOut = _swapOnPool(stableIn, false);
        weth.withdraw(ethOut);
    }

    /// @dev Sells exactly `stableIn` of the stablecoin for WETH on the v3 pool, without a price limit (the caller's
    ///      `minEth` is the limit). Quoting, the callback reverts with the WETH out before anything is paid.
    function _swapOnPool(uint256 stableIn, bool quoting) private returns (uint256 wethOut) {
        bool zeroForOne = ethUsdPool.token0() == address(stablecoin);
        swapping = true;
        (int256 amount0, int256 amount1) = ethUsdPool.swap(
            address(this),
            zeroForOne,
            int256(stableIn),
            zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE,
            abi.encode(quoting)
        );
        wethOut = uint256(-(zeroForOne ? amount1 : amount0));
    }

    /// @dev The dev-buy extension config must name this contract as the recipient; its msgValue becomes the ETH the
    ///      swap brought (the factory checks msg.value equals the extensions' msgValue sum).
    function _deploy(IClanker.DeploymentConfig calldata config, uint256 devBuyIndex, uint256 ethIn)
        private
        returns (address token)
    {
        IClanker.DeploymentConfig memory deployment = config;
        if (devBuyIndex >= deployment.extensionConfigs.length) revert InvalidDevBuyExtension();
        IClankerEthDevBuy.Univ4EthDevBuyExtensionData memory devBuy =
            abi.decode(deployment.extensionConfigs[devBuyIndex].extensionData, (IClankerEthDevBuy.Univ4EthDevBuyExtensionData));
        if (devBuy.recipient != address(this)) revert InvalidDevBuyExtension();
        for (uint256 i = 0; i < deployment.extensionConfigs.length; i++) {
            if (i != devBuyIndex && deployment.extensionConfigs[i].msgValue != 0) revert InvalidDevBuyExtension();
        }
        deployment.extensionConfigs[devBuyIndex].msgValue = ethIn;
        token = factory.deployToken{value: ethIn}(deployment);
    }

    function _allocate(
        bytes32 launchId,
        IDevBuyERC20 token,
        Contribution[] calldata contributions,
        uint256 total,
        uint256 net,
        LaunchLimits calldata limits
    ) private {
        uint256 largest;
        uint256 shared;
        uint256[] memory shares = new uint256[](contributions.length);
        for (uint256 i = 0; i < contributions.length; i++) {
            shares[i] = net * contributions[i].amount / total;
            shared += shares[i];
            if (contributions[i].amount > contributions[largest].amount) largest = i;
        }
        shares[largest] += net - shared;
        bool locked = limits.lockSeconds > 0 || limits.vestingSeconds > 0;
        address[] memory wallets = new address[](contributions.length);
        for (uint256 i = 0; i < contributions.length; i++) {
            wallets[i] = contributions[i].wallet;
            if (!locked) _send(token, contributions[i].wallet, shares[i]);
            emit BuyerAllocated(launchId, contributions[i].wallet, contributions[i].amount, shares[i]);
        }
        if (locked) {
            if (!token.approve(address(vesting), net)) revert TransferFailed();
            vesting.lock(address(token), wallets, shares, uint64(block.timestamp) + limits.lockSeconds, limits.vestingSeconds);
        }
    }

    function _send(IDevBuyERC20 token, address to, uint256 amount) private {
        if (!token.transfer(to, amount)) revert TransferFailed();
    }
}
