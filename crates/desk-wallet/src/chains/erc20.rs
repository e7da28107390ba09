//! The ERC-20 calls (TRC-20 on Tron has the same ABI) and the gateway contract's `approvalRequired()`, for the
//! EVM chains and Tron alike.

alloy::sol! {
    function balanceOf(address owner) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function approvalRequired() external view returns (bool);
}
