// What other modules may ask of the group module: memberships and the groups' feature flags.
export {
  assertGroupsExist,
  defaultGroupAllows,
  defaultGroupId,
  firstGroupId,
  groupAllows,
  groupIdsOf,
  groupsOfUser,
  memberIds,
  permissionIdsOfGroups,
  refreshGroupCounts,
  setUserGroups,
  type FeatureFlag,
} from './store';
